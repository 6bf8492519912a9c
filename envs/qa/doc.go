// Package qa holds gemgo's question-answering family (ids "qa:..."): a
// question and a list of accepted answers, scored by SQuAD's exact match
// after SQuAD normalisation (lower case; punctuation, the articles a/an/the
// and extra whitespace removed). The reward is the exact match (1 or 0);
// the step info also reports "f1", SQuAD's token-level F1 against the best
// accepted answer. The family is meant to be used with the search tool.
//
// qa:sample is a built-in set of 32 general-knowledge questions written for
// gemgo; qa:jsonl reads any JSONL file (option path; options question_field
// and answers_field, default "question" and "answers"; an answers field may
// be a list or a single string). The problem of seed s is item s mod n.
package qa
