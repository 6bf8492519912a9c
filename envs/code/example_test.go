package code_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/code"
)

func ExampleExtractCode() {
	response := "First a sketch:\n```python\nprint(0)\n```\nFinal program:\n```python\nimport sys\nprint(sum(map(int, sys.stdin.read().split())))\n```\nExample input:\n```\n1 2\n```"
	prog, ok := code.ExtractCode(response)
	fmt.Println(ok)
	fmt.Println(prog)
	// Output:
	// true
	// import sys
	// print(sum(map(int, sys.stdin.read().split())))
}

func ExampleSameOutput() {
	fmt.Println(code.SameOutput("1 2  \r\n3\n\n", "1 2\n3"))
	fmt.Println(code.SameOutput(" 1 2\n", "1 2\n"))
	// Output:
	// true
	// false
}
