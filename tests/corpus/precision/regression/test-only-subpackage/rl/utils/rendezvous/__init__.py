# Copyright the authors.
