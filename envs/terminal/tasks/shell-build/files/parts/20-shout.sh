shout() {
  echo "$1" | tr a-z A-Z
}
