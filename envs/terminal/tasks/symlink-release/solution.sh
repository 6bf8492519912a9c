ln -sfn releases/v2.10 current
rm previous
