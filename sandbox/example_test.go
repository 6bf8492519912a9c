package sandbox_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gemgo/gemgo/sandbox"
)

func ExampleRun() {
	res, err := sandbox.Run(context.Background(), sandbox.Spec{
		Cmd:    []string{"cat"},
		Stdin:  []byte("hello from stdin\n"),
		Limits: sandbox.Limits{Wall: 10 * time.Second, CPU: time.Second, MemoryBytes: 64 << 20, OutputBytes: 1 << 10},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Status, ": ", string(res.Stdout))
	// Output: ok: hello from stdin
}

func ExampleRun_outputLimit() {
	res, err := sandbox.Run(context.Background(), sandbox.Spec{
		Cmd:    []string{"yes"},
		Limits: sandbox.Limits{Wall: 10 * time.Second, OutputBytes: 8},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %q %v\n", res.Status, res.Stdout, res.Truncated)
	// Output: output_limit "y\ny\ny\ny\n" true
}

// A PythonServer forks each program from one warm interpreter; the
// Result is Run's for `python3 -I main.py`. (Not run as a test: it needs
// python3.)
func ExamplePythonServer() {
	python, err := sandbox.FindPython("python3")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := sandbox.NewPythonServer(python, 0)
	defer s.Close()
	lim := sandbox.Limits{Wall: 5 * time.Second, CPU: 5 * time.Second}
	for _, code := range []string{"print(6 * 7)", "1/0"} {
		res, err := s.Run(context.Background(), []byte(code), nil, lim)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Status, string(res.Stdout))
	}
}
