def main():
    # TODO: handle errors
    pass
