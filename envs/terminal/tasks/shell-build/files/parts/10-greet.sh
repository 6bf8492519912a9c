greet() {
  echo "hi $1"
}
