import sys


def main():
    command = sys.argv.pop(1) if len(sys.argv) > 1 else "help"
    if command == "train":
        from mytool.train import run_train

        run_train()
    elif command == "chat":
        from mytool.chat import run_chat

        run_chat()
    elif command == "export":
        from mytool.export import export_model

        export_model()
    elif command == "env":
        from mytool.env import print_env

        print_env()
    else:
        print(f"unknown command {command}")


if __name__ == "__main__":
    main()
