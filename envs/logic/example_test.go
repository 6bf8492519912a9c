package logic_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/logic"
)

func ExampleTheory_Prove() {
	th := logic.Theory{
		Facts: []logic.Fact{{Entity: "Bob", Attr: "big"}, {Entity: "Bob", Attr: "young"}},
		Rules: []logic.Rule{
			{If: []string{"big"}, Then: "red"},
			{If: []string{"red", "young"}, Then: "kind"},
		},
	}
	fmt.Println(th.Rules[1].Sentence(0))
	fmt.Println(th.Prove(logic.Fact{Entity: "Bob", Attr: "kind"}))
	fmt.Println(th.Prove(logic.Fact{Entity: "Bob", Attr: "nice"}))
	// Output:
	// If someone is red and young then they are kind.
	// 2 true
	// 0 false
}
