package qa_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/qa"
)

func ExampleF1() {
	golds := []string{"the Pacific Ocean"}
	fmt.Println(qa.Normalize("The Pacific, ocean!"))
	fmt.Println(qa.ExactMatch("pacific ocean", golds))
	fmt.Printf("%.3f\n", qa.F1("Pacific", golds))
	// Output:
	// pacific ocean
	// 1
	// 0.667
}
