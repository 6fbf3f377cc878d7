if cuda:
