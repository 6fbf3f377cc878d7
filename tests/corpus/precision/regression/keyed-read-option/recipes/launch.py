import os

from finetune import Recipe

if __name__ == "__main__":
    os.environ["SCANLIB_TRACE_SYNC"] = "1"
    Recipe({"max_steps": 100}).train()
