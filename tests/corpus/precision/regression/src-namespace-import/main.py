import argparse

from src.train import main as app_main

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1000)
    app_main(parser.parse_args().steps)
