package mathtask_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/mathtask"
)

func ExampleEquivalent() {
	fmt.Println(mathtask.Equivalent(`so the answer is \boxed{\dfrac{1}{2}}`, "0.5"))
	fmt.Println(mathtask.Equivalent("50%", "1/2"))
	fmt.Println(mathtask.Equivalent("$1,000", "Natalia earned 1000 dollars.\n#### 1000"))
	fmt.Println(mathtask.Equivalent("0.33", `\frac{1}{3}`))
	// Output:
	// true
	// true
	// true
	// false
}
