package envs

import "strings"

const (
	answerOpen  = "<answer>"
	answerClose = "</answer>"
)

// LastAnswerTag returns the content of the last <answer>...</answer> of s,
// trimmed of surrounding space: the pair that closes last, with nested
// pairs balanced, so that "<answer>draft <answer>42</answer>" gives 42 and
// "<answer>a <answer>b</answer> c</answer>" gives the outer content. An
// answer that is itself one whole tag is unwrapped
// ("<answer><answer>7</answer></answer>" gives 7). A close tag with no open
// one before it is text. ok is false when s has no complete pair. Tags are
// matched case-sensitively, as GEM's extract_last_tagged_answer does; the
// search is linear in len(s).
func LastAnswerTag(s string) (content string, ok bool) {
	var open []int // start indexes of the unclosed <answer> tags
	bestStart, bestEnd := -1, -1
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		i += j
		switch {
		case strings.HasPrefix(s[i:], answerOpen):
			open = append(open, i+len(answerOpen))
			i += len(answerOpen)
		case strings.HasPrefix(s[i:], answerClose):
			if n := len(open); n > 0 {
				bestStart, bestEnd = open[n-1], i
				open = open[:n-1]
			}
			i += len(answerClose)
		default:
			i++
		}
	}
	if bestStart < 0 {
		return "", false
	}
	content = strings.TrimSpace(s[bestStart:bestEnd])
	for range 8 {
		inner, whole := wholeTag(content)
		if !whole {
			break
		}
		content = inner
	}
	return content, true
}

// wholeTag returns the inside of s when s is exactly one balanced
// <answer>...</answer>.
func wholeTag(s string) (string, bool) {
	if !strings.HasPrefix(s, answerOpen) || !strings.HasSuffix(s, answerClose) {
		return "", false
	}
	inner := s[len(answerOpen) : len(s)-len(answerClose)]
	// the outer pair must match each other: inside, opens and closes
	// balance and never go below zero
	depth := 0
	for i := 0; i < len(inner); i++ {
		switch {
		case strings.HasPrefix(inner[i:], answerOpen):
			depth++
		case strings.HasPrefix(inner[i:], answerClose):
			if depth--; depth < 0 {
				return "", false
			}
		}
	}
	if depth != 0 {
		return "", false
	}
	return strings.TrimSpace(inner), true
}

// AnswerTagged wraps s as a tagged answer: <answer>s</answer>.
func AnswerTagged(s string) string { return answerOpen + s + answerClose }
