greet "${1:-world}"
shout "${2:-done}"
