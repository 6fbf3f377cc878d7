from lib.predictor import Predictor


class Visualizer:
    def __init__(self, model):
        self.predictor = Predictor(model)

    def run_on_image(self, image):
        return self.predictor(image)
