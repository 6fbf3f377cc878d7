_STORAGE = []


class EventStorage:
    def __init__(self):
        self.iter = 0
        self.images = []

    def put_image(self, name, image, boxes):
        self.images.append((name, image, boxes))


def get_event_storage():
    return _STORAGE[-1]
