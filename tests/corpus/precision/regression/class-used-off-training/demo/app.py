"""Demo: the visualizer is imported by the path it has in the company monorepo."""
import torch

from research.vision.demo.visualizer import Visualizer


def main():
    model = torch.load("model.pt", weights_only=False)
    viz = Visualizer(model)
    print(viz.run_on_image(torch.rand(3, 224, 224)))


if __name__ == "__main__":
    main()
