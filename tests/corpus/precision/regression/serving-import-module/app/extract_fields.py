import json
import sys

from utils import LLM, extract

if __name__ == "__main__":
    llm = LLM(model=sys.argv[1])
    print(json.dumps(extract(llm, open(sys.argv[2]).read().split("\n\n"))))
