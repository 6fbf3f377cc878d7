#!/bin/bash
python networks/probe.py
