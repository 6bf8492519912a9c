package envtest

import (
	"math/rand/v2"
	"strings"
)

// hostileInputs are action strings that must never make an env panic, hang
// or return an error: empty and huge strings, broken and nested braces,
// invalid UTF-8, odd numbers and words in a box.
func hostileInputs() []string {
	return []string{
		"",
		" ",
		"\x00",
		"\xff\xfe\xfd",
		`\boxed{`,
		`\boxed{}`,
		`\boxed{ }`,
		`\boxed{{}`,
		`\boxed{}}`,
		`}\boxed{1}{`,
		`\boxed{\boxed{1}`,
		`\boxed{{{{1}}}}`,
		`\boxed{1}}}}{{{{`,
		`\boxed{-1}`,
		`\boxed{0}`,
		`\boxed{-0}`,
		`\boxed{+3}`,
		`\boxed{99999999999999999999999999999999}`,
		`\boxed{-9223372036854775808}`,
		`\boxed{1e309}`,
		`\boxed{NaN}`,
		`\boxed{Inf}`,
		`\boxed{0x10}`,
		`\boxed{1.5}`,
		`\boxed{1/2}`,
		`\boxed{１２}`,
		`\boxed{ü}`,
		`\boxed{日本語}`,
		`\boxed{🙂🙂🙂🙂🙂}`,
		`\boxed{a}`,
		`\boxed{A}`,
		`\boxed{zzzzz}`,
		`\boxed{up}`,
		`\boxed{LEFT}`,
		`\boxed{A C}`,
		`\boxed{C A}`,
		`\boxed{1 2}`,
		`\boxed{1 2 3 4}`,
		`\boxed{1,2,3,4}`,
		`\boxed{1  2   3    4}`,
		`\boxed{0 0}`,
		`\boxed{reveal 0 0}`,
		`\boxed{flag 99 99}`,
		`\boxed{reveal -1 -1}`,
		`\boxed{1 1 1}`,
		`\boxed{9 9 9}`,
		`\boxed{0 0 0 0}`,
		`\boxed{1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16}`,
		"\\boxed{1\n2}",
		"\\boxed{\t1\t}",
		`\boxed{\boxed{\boxed{}}}`,
		`\boxed{<python>print(1)</python>}`,
		"The answer is \\boxed{3}. No wait, \\boxed{",
		`\boxed{` + strings.Repeat("9", 1<<20) + `}`,
		`\boxed{` + strings.Repeat("1 ", 1<<16) + `}`,
		strings.Repeat(`\boxed{`, 1<<16),
		strings.Repeat("{", 1<<16) + `\boxed{1}`,
		strings.Repeat(`\boxed{1}`, 1<<13),
		strings.Repeat("x", 1<<20),
	}
}

// mutate returns a randomly damaged copy of a valid action: a byte inserted,
// deleted or replaced, digits turned huge or negative, the box doubled.
func mutate(r *rand.Rand, a string) string {
	if a == "" {
		return randomBytes(r, 1+r.IntN(16))
	}
	switch r.IntN(8) {
	case 0: // insert a random byte
		i := r.IntN(len(a) + 1)
		return a[:i] + string(rune(r.IntN(256))) + a[i:]
	case 1: // delete a byte
		i := r.IntN(len(a))
		return a[:i] + a[i+1:]
	case 2: // replace a byte with a random one
		i := r.IntN(len(a))
		return a[:i] + string([]byte{byte(r.IntN(256))}) + a[i+1:]
	case 3: // numbers become huge
		return strings.NewReplacer("1", "1000000000000", "2", "-2", "3", "333").Replace(a)
	case 4: // repeat the content
		return strings.Replace(a, "}", " "+a+"}", 1)
	case 5: // random bytes in a box
		return `\boxed{` + randomBytes(r, r.IntN(24)) + `}`
	case 6: // case swap
		if r.IntN(2) == 0 {
			return strings.ToUpper(a)
		}
		return strings.ToLower(a)
	default: // a truncated response
		return a[:r.IntN(len(a))]
	}
}

func randomBytes(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return string(b)
}
