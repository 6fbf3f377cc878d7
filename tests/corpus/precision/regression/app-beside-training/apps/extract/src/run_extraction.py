from utils import extract, load_engine


def main():
    engine = load_engine("meta-llama/Llama-3.2-1B-Instruct")
    print(extract(engine, ["Extract the table from this page."]))


if __name__ == "__main__":
    main()
