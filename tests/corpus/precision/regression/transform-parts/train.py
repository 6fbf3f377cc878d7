import torch
from torchvision import datasets, transforms

from augment import GaussianBlur, SkipLayers, Solarization


class MultiCropAugmentation(object):
    def __init__(self, crops):
        self.crops = crops
        self.global_view = transforms.Compose([
            transforms.RandomResizedCrop(224),
            GaussianBlur(0.1),
            Solarization(0.2),
            transforms.ToTensor(),
        ])

    def __call__(self, image):
        return [self.global_view(image) for _ in range(self.crops)]


def main():
    dataset = datasets.ImageFolder("data/train", transform=MultiCropAugmentation(2))
    loader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=True, drop_last=True, num_workers=8)
    model = torch.nn.Linear(224, 224)
    skip = SkipLayers(0.1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, _ in loader:
        out = skip(images[0], model)
        loss = out.pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
