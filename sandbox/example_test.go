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
