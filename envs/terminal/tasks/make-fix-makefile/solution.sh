sed -i 's/^    /\t/' Makefile
make
