"""Builds ../data/sample.jsonl: the statements and test inputs below, with
each expected output produced by the reference solution in solutions/.

Run from this directory: python3 make_sample.py
"""
import json
import os
import subprocess
import sys

PROBLEMS = [
    ("sum_two", "Read two integers a and b (|a|, |b| <= 10^18) on one line and print a + b.",
     ["1 2\n", "-5 5\n", "1000000000000000000 1000000000000000000\n", "0 0\n", "-7 -8\n"]),
    ("max_of_list", "The first line holds n (1 <= n <= 1000); the second holds n integers. Print the largest.",
     ["3\n1 5 2\n", "1\n-4\n", "5\n-1 -2 -3 -4 -5\n", "4\n7 7 7 7\n", "6\n10 -10 100 3 99 0\n"]),
    ("reverse_string", "Read one line of text and print it reversed.",
     ["hello\n", "a\n", "racecar\n", "Go is fun!\n", "12345\n"]),
    ("count_vowels", "Read one line and print how many of its characters are vowels (a, e, i, o, u, in either case).",
     ["hello\n", "AEIOU\n", "rhythm\n", "Programming In Python\n", "x\n"]),
    ("fizzbuzz", "Read n (1 <= n <= 100). For i = 1..n print one line: Fizz if i is a multiple of 3, Buzz if of 5, FizzBuzz if of both, else i.",
     ["1\n", "5\n", "15\n", "16\n"]),
    ("factorial", "Read n (0 <= n <= 30) and print n! (the product 1 * 2 * ... * n; 0! = 1).",
     ["0\n", "1\n", "5\n", "10\n", "20\n", "30\n"]),
    ("fibonacci", "Read n (0 <= n <= 90) and print F(n), where F(0) = 0, F(1) = 1 and F(n) = F(n-1) + F(n-2).",
     ["0\n", "1\n", "2\n", "10\n", "50\n", "90\n"]),
    ("is_prime", "The first line holds t; each of the next t lines holds an integer n (0 <= n <= 10^9). For each n print YES if it is prime, else NO.",
     ["3\n2\n4\n17\n", "4\n0\n1\n9\n97\n", "2\n1000000007\n1000000000\n", "1\n3\n"]),
    ("gcd_lcm", "Read two positive integers a and b (<= 10^9) and print their greatest common divisor and least common multiple, separated by a space.",
     ["4 6\n", "7 13\n", "12 12\n", "1 1000000000\n", "1000000000 999999999\n"]),
    ("palindrome", "Read one line. Ignoring case and every character that is not a letter or a digit, print YES if it reads the same backwards, else NO.",
     ["racecar\n", "A man, a plan, a canal: Panama\n", "hello\n", "No 'x' in Nixon\n", "ab\n", "7\n"]),
    ("word_count", "Read the whole input (possibly several lines) and print the number of words, a word being a maximal run of non-space characters.",
     ["hello world\n", "one\n", "  many   spaces here  \n", "two\nlines of text\n", "a b c d e f g\n"]),
    ("sort_numbers", "The first line holds n (1 <= n <= 1000); the second holds n integers. Print them in ascending order, separated by spaces.",
     ["3\n3 1 2\n", "1\n5\n", "5\n5 -1 3 -1 0\n", "4\n10 9 8 7\n"]),
    ("binary", "Read a non-negative integer n (<= 10^18) and print it in base 2, without leading zeros (0 prints as 0).",
     ["0\n", "1\n", "2\n", "10\n", "255\n", "1000000000000000000\n"]),
    ("digit_sum", "Read a non-negative integer of up to 100 digits and print the sum of its digits.",
     ["0\n", "9\n", "12345\n", "99999999999999999999\n", "1000000001\n"]),
    ("matrix_transpose", "The first line holds r and c (1 <= r, c <= 20); then r lines of c integers each. Print the transpose: c lines of r integers separated by spaces.",
     ["2 3\n1 2 3\n4 5 6\n", "1 1\n7\n", "3 1\n1\n2\n3\n", "2 2\n1 -2\n-3 4\n"]),
    ("anagram", "Read two lowercase words on one line, separated by a space. Print YES if one is a rearrangement of the letters of the other, else NO.",
     ["listen silent\n", "abc abd\n", "aab aba\n", "a aa\n", "evil vile\n"]),
    ("running_sum", "The first line holds n (1 <= n <= 1000); the second holds n integers. Print their prefix sums (the i-th is the sum of the first i numbers), separated by spaces.",
     ["3\n1 2 3\n", "1\n-5\n", "5\n1 -1 1 -1 1\n", "4\n100 200 300 400\n"]),
    ("char_frequency", "Read one lowercase word. For each distinct letter, in alphabetical order, print a line with the letter and how many times it occurs, separated by a space.",
     ["hello\n", "a\n", "banana\n", "mississippi\n"]),
    ("second_largest", "The first line holds n (1 <= n <= 1000); the second holds n integers. Print the second largest distinct value, or -1 if there are fewer than two distinct values.",
     ["3\n1 2 3\n", "4\n5 5 5 5\n", "5\n2 9 9 4 1\n", "1\n10\n", "3\n-1 -2 -3\n"]),
    ("caesar", "The first line holds k (0 <= k <= 25); the second holds a line of text. Shift every letter k places forward in the alphabet, wrapping from z to a and keeping case; leave other characters as they are. Print the result.",
     ["3\nabc\n", "1\nzZ\n", "13\nHello, World!\n", "0\nsame text\n", "25\nbcd XYZ\n"]),
    ("balanced_brackets", "Read one line made of the characters ()[]{}. Print YES if the brackets are balanced and properly nested, else NO.",
     ["()\n", "([]{})\n", "(]\n", "((\n", "{[()()]}\n", ")(\n", "\n"]),
    ("triangle", "Read n (1 <= n <= 50) and print n lines: the i-th line holds i asterisks (*).",
     ["1\n", "3\n", "5\n"]),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    lines = []
    for pid, question, inputs in PROBLEMS:
        assert 3 <= len(inputs) <= 8, pid
        sol = os.path.join(here, "solutions", pid + ".py")
        tests = []
        for inp in inputs:
            out = subprocess.run([sys.executable, sol], input=inp, capture_output=True, text=True, check=True).stdout
            tests.append({"input": inp, "output": out})
        lines.append(json.dumps({"id": pid, "question": question, "tests": tests}, ensure_ascii=False))
    with open(os.path.join(here, "..", "data", "sample.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
