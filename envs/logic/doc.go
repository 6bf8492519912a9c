// Package logic holds gemgo's RuleTaker-style reasoning family (ids
// "logic:RuleTaker-v0-d0" ... "-d5" and "-random"): a theory of facts
// ("Bob is big.") and rules ("If someone is big and young then they are
// red.") over a few entities and attributes, and a statement to judge
// ("Bob is red."). The answer, \boxed{True} or \boxed{False}, is read under
// the closed-world assumption: a statement is true exactly when it follows
// from the facts by the rules, and false otherwise (there is no negation).
//
// Depth. Theory.Closure forward-chains in rounds: the given facts have depth
// 0, and a fact first derived in round k, from premises of depth < k, has
// depth k, the height of its shortest proof tree (for rules with one
// premise, the number of rule applications on the proof's chain). A problem
// of depth d has a theory whose deepest derived fact has depth exactly d and
// a chain that proves one attribute of a target entity at depth d; a True
// statement is that fact (it needs exactly d rule applications in sequence),
// a False statement is the same attribute for another entity whose proof
// fails along the chain, or an unprovable attribute of the target. The
// label is drawn first, so True and False are balanced.
package logic
