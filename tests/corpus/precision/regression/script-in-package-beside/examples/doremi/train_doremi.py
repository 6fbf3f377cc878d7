"""A script in a package folder, run by its path: its folder is sys.path[0], so `doremi.trainer` is the sibling package."""
from doremi.trainer import DoReMiTrainer

if __name__ == "__main__":
    trainer = DoReMiTrainer(None)
    trainer.train([])
