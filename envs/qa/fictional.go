package qa

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// The fictional worlds: invented countries, cities, people and companies,
// with facts that exist only in their corpus, so that a model can answer
// their questions only by searching that corpus (a corpus of common
// knowledge shows no benefit from search). GenerateFictional builds each
// from a fixed seed; the question files in data/ and the corpora in
// package corpora are its output, checked by a golden test (go test ./envs/qa -run TestFictionalGolden -update rewrites them).
//
// Two worlds ship. v0 (171 documents) writes each invented name as one
// word ("Dulwyn Dulkatal"). v1 (798 documents) writes names as hyphenated
// syllables ("Dul-wyn Dul-ka-tal"): gemgo's tokenizer learns whole words,
// so a name it never saw in training falls apart into single bytes, while
// the names it trained on are one token each; with syllables, every name
// is spelled with the same few dozen tokens, as a subword (BPE) tokenizer
// would spell an unseen name from known pieces (docs/results.md section 5).
// v2 (798 documents) composes names from pools of one-word parts: a person
// is a given name and a family name ("Dulwyn Katal"), a company a firm word
// and a kind ("Vendra Foundry"). Every part is a token the policy trains on,
// and a held-out entity is a combination of parts no training question
// names, as a real unseen name is: a query for it copies two known tokens
// in a new pairing, which no query learned by heart can stand in for.

//go:embed data/fictional_onehop.jsonl
var fictionalOneHop string

//go:embed data/fictional_twohop.jsonl
var fictionalTwoHop string

//go:embed data/fictional_v1_onehop.jsonl
var fictionalV1OneHop string

//go:embed data/fictional_v1_twohop.jsonl
var fictionalV1TwoHop string

//go:embed data/fictional_v2_onehop.jsonl
var fictionalV2OneHop string

//go:embed data/fictional_v2_twohop.jsonl
var fictionalV2TwoHop string

// FictionalVersion sets a world's size, seed and name style.
type FictionalVersion struct {
	Name                                 string // "v0", "v1" or "v2"
	Seed                                 uint64
	Countries, Cities, People, Companies int
	Syllabic                             bool // names as hyphenated syllables
	// Composed worlds (GivenNames > 0) draw each person's name as one of
	// GivenNames given names and one of FamilyNames family names, and
	// each company's as one of FirmWords words and a firm kind (Works,
	// Foundry, ...), every pairing used once; the pools must hold
	// People and Companies pairings.
	GivenNames, FamilyNames, FirmWords int
}

// FictionalVersions are the shipped worlds.
var FictionalVersions = []FictionalVersion{
	{Name: "v0", Seed: 20251007, Countries: 6, Cities: 30, People: 90, Companies: 45},
	{Name: "v1", Seed: 20261202, Countries: 8, Cities: 40, People: 500, Companies: 250, Syllabic: true},
	{Name: "v2", Seed: 20261203, Countries: 8, Cities: 40, People: 500, Companies: 250, GivenNames: 25, FamilyNames: 30, FirmWords: 50},
}

// FictionalWorld is the generated world as files: the corpus and the
// questions, one hop and two hops, each JSONL.
type FictionalWorld struct {
	Corpus, OneHop, TwoHop []byte
}

type country struct{ name, adj string }

type city struct {
	name    string
	country int
	founded int
	trade   string
}

type person struct {
	name       string
	city, born int
	job        string
}

type company struct {
	name        string
	founder, hq int
	founded     int
	product     string
}

var (
	syllables  = []string{"ka", "lor", "ven", "dra", "mi", "tos", "qua", "rel", "sha", "bri", "nox", "tal", "esk", "vy", "mor", "zan", "pel", "ith", "gor", "ul", "fen", "sar", "oth", "wyn", "cra", "dul", "ise", "bar", "jov", "ree"}
	trades     = []string{"glass", "salt", "wool", "copper", "paper", "clocks", "dyes", "rope", "honey", "tin"}
	jobs       = []string{"cartographer", "engineer", "botanist", "composer", "astronomer", "weaver", "chemist", "architect", "poet", "shipwright"}
	products   = []string{"lanterns", "bicycles", "telescopes", "pianos", "umbrellas", "typewriters", "compasses", "kites", "stoves", "barometers"}
	firmSuffix = []string{"Works", "Company", "Foundry", "Guild", "Brothers", "Mills"}
)

// namer draws invented names, never the same twice.
type namer struct {
	r        *rand.Rand
	used     map[string]bool
	syllabic bool // join the syllables with hyphens
}

func (n *namer) word(minSyl, maxSyl int) string {
	for {
		k := minSyl + n.r.IntN(maxSyl-minSyl+1)
		var b strings.Builder
		for i := range k {
			if i > 0 && n.syllabic {
				b.WriteByte('-')
			}
			b.WriteString(syllables[n.r.IntN(len(syllables))])
		}
		w := b.String()
		w = strings.ToUpper(w[:1]) + w[1:]
		if !n.used[w] && len(w) >= 4 {
			n.used[w] = true
			return w
		}
	}
}

// words draws n new words of minSyl to maxSyl syllables.
func (n *namer) words(count, minSyl, maxSyl int) []string {
	ws := make([]string, count)
	for i := range ws {
		ws[i] = n.word(minSyl, maxSyl)
	}
	return ws
}

// pairs returns a function that draws "a b" with a from first and b from
// second, never the same pairing twice (the caller draws at most
// len(first)*len(second) of them).
func (n *namer) pairs(first, second []string) func() string {
	drawn := 0
	return func() string {
		if drawn == len(first)*len(second) {
			// A FictionalVersion (a package value, not user input) whose
			// pools are too small: fail at once rather than loop forever.
			panic(fmt.Sprintf("qa: all %d pairings of %d and %d names are used: the FictionalVersion's pools are too small for its people or companies", drawn, len(first), len(second)))
		}
		drawn++
		for {
			p := first[n.r.IntN(len(first))] + " " + second[n.r.IntN(len(second))]
			if !n.used[p] {
				n.used[p] = true
				return p
			}
		}
	}
}

// GenerateFictional builds a world from its fixed seed (v0: 6 countries,
// 30 cities, 90 people and 45 companies; 270 one-hop and 135 two-hop
// questions), each question marked "train" or "test" (a fifth of the
// entities' questions are "test"). Every other person founded a company,
// so v.Companies is at most half of v.People.
func GenerateFictional(v FictionalVersion) FictionalWorld {
	r := rand.New(rand.NewPCG(v.Seed, 42))
	nm := &namer{r: r, used: map[string]bool{}, syllabic: v.Syllabic}
	countries := make([]country, v.Countries)
	for i := range countries {
		n := nm.word(2, 3)
		countries[i] = country{name: n, adj: n + "n"}
	}
	cities := make([]city, v.Cities)
	for i := range cities {
		cities[i] = city{name: nm.word(2, 3), country: i % len(countries), founded: 900 + r.IntN(800), trade: trades[r.IntN(len(trades))]}
	}
	personName := func() string { return nm.word(2, 2) + " " + nm.word(2, 3) }
	companyName := func() string { return nm.word(2, 3) + " " + firmSuffix[r.IntN(len(firmSuffix))] }
	if v.GivenNames > 0 {
		personName = nm.pairs(nm.words(v.GivenNames, 2, 2), nm.words(v.FamilyNames, 2, 3))
		companyName = nm.pairs(nm.words(v.FirmWords, 2, 3), firmSuffix)
	}
	people := make([]person, v.People)
	for i := range people {
		people[i] = person{name: personName(), city: r.IntN(len(cities)), born: 1800 + r.IntN(150), job: jobs[r.IntN(len(jobs))]}
	}
	companies := make([]company, v.Companies)
	for i := range companies {
		f := 2 * i // every other person founded a company
		companies[i] = company{name: companyName(), founder: f, hq: r.IntN(len(cities)),
			founded: people[f].born + 22 + r.IntN(30), product: products[r.IntN(len(products))]}
	}

	var corpus, one, two bytes.Buffer
	doc := func(id, title, text string) {
		writeJSONL(&corpus, map[string]any{"id": id, "contents": fmt.Sprintf("%q\n%s", title, text)})
	}
	// split names the set a question belongs to: every fifth person and
	// every fifth company (the entity the question names) is held out, so
	// a test question asks about an entity no training question names.
	split := func(entity int) string {
		if entity%5 == 4 {
			return "test"
		}
		return "train"
	}
	q := func(buf *bytes.Buffer, entity int, question string, answers ...string) {
		writeJSONL(buf, map[string]any{"question": question, "answers": answers, "split": split(entity)})
	}
	for i, c := range countries {
		var names []string
		for _, ci := range cities {
			if ci.country == i {
				names = append(names, ci.name)
			}
		}
		doc(fmt.Sprintf("country-%d", i), c.name, fmt.Sprintf("%s is a country whose cities include %s. Its people are called %ss.", c.name, strings.Join(names, ", "), c.adj))
	}
	for i, c := range cities {
		doc(fmt.Sprintf("city-%d", i), c.name, fmt.Sprintf("%s is a city in %s, founded in the year %d. It is known for its %s trade.", c.name, countries[c.country].name, c.founded, c.trade))
	}
	for i, p := range people {
		text := fmt.Sprintf("%s (born %d in %s) is a %s %s.", p.name, p.born, cities[p.city].name, countries[cities[p.city].country].adj, p.job)
		if i%2 == 0 {
			text += fmt.Sprintf(" %s founded %s.", p.name, companies[i/2].name)
		}
		doc(fmt.Sprintf("person-%d", i), p.name, text)
	}
	for i, c := range companies {
		doc(fmt.Sprintf("company-%d", i), c.name, fmt.Sprintf("%s is a maker of %s, founded in %d by %s. Its headquarters are in %s.", c.name, c.product, c.founded, people[c.founder].name, cities[c.hq].name))
	}
	// One hop: the answer is in the document of the entity named.
	for i, p := range people {
		q(&one, i, fmt.Sprintf("In which city was %s born?", p.name), cities[p.city].name)
		q(&one, i, fmt.Sprintf("What is the profession of %s?", p.name), p.job)
	}
	for i, c := range companies {
		q(&one, i, fmt.Sprintf("Who founded %s?", c.name), people[c.founder].name)
		q(&one, i, fmt.Sprintf("What does %s make?", c.name), c.product)
	}
	// Two hops: the document of the entity named names a second entity,
	// whose document holds the answer.
	for i, c := range companies {
		f := people[c.founder]
		q(&two, i, fmt.Sprintf("In which city was the founder of %s born?", c.name), cities[f.city].name)
		q(&two, i, fmt.Sprintf("In which country are the headquarters of %s?", c.name), countries[cities[c.hq].country].name)
		q(&two, i, fmt.Sprintf("What is the profession of the founder of %s?", c.name), f.job)
	}
	return FictionalWorld{Corpus: corpus.Bytes(), OneHop: one.Bytes(), TwoHop: two.Bytes()}
}

func writeJSONL(b *bytes.Buffer, v map[string]any) {
	line, _ := json.Marshal(v) // maps of strings and string slices always marshal
	b.Write(line)
	b.WriteByte('\n')
}
