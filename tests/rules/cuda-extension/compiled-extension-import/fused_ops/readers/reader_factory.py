def create_reader(name, root):
    return (name, root)
