from utils import engine_for

if __name__ == "__main__":
    print(engine_for("meta-llama/Llama-3.2-1B-Instruct").generate(["Summarise this page."]))
