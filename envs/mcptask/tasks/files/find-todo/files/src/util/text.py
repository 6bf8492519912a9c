def clean(s):
    # TODO: trim spaces
    return s
