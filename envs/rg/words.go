package rg

// words is a small list of common English words (lower case, 3 to 8
// letters) that the text tasks draw from. The project wrote it; it needs no
// dictionary on the user's machine.
var words = []string{
	"apple", "river", "stone", "cloud", "garden", "window", "yellow", "planet",
	"silver", "forest", "bridge", "candle", "dragon", "engine", "flower", "guitar",
	"harbor", "island", "jacket", "kitten", "ladder", "market", "number", "orange",
	"pencil", "rabbit", "saddle", "ticket", "valley", "wonder", "anchor", "basket",
	"castle", "desert", "finger", "hammer", "insect", "jungle", "lemon", "mirror",
	"needle", "oyster", "pepper", "quiet", "rocket", "shadow", "tunnel", "velvet",
	"winter", "zebra", "bread", "chair", "dance", "eagle", "flame", "grape",
	"house", "juice", "knife", "light", "money", "night", "ocean", "piano",
	"queen", "radio", "sugar", "table", "uncle", "voice", "water", "youth",
	"cat", "dog", "sun", "moon", "star", "tree", "fish", "bird",
	"book", "door", "road", "ship", "rain", "snow", "wind", "fire",
	"gold", "iron", "milk", "salt", "rice", "corn", "wolf", "bear",
	"lamp", "ring", "coin", "drum", "bell", "leaf", "seed", "root",
	"hill", "lake", "farm", "city", "king", "poem", "song", "game",
	"blue", "green", "purple", "brown", "black", "white", "quick", "slow",
	"happy", "brave", "gentle", "clever", "bright", "calm", "proud", "wild",
	"travel", "listen", "gather", "follow", "build", "carry", "climb", "dream",
	"market", "letter", "morning", "evening", "teacher", "kitchen", "picture", "weather",
}

// animals maps animal names (plural) to their number of legs.
var animals = []struct {
	name string
	legs int
}{
	{"chickens", 2}, {"ducks", 2}, {"ostriches", 2}, {"humans", 2}, {"penguins", 2},
	{"cows", 4}, {"dogs", 4}, {"cats", 4}, {"horses", 4}, {"sheep", 4}, {"elephants", 4},
	{"spiders", 8}, {"ants", 6}, {"beetles", 6}, {"bees", 6}, {"crabs", 10},
	{"snakes", 0}, {"fish", 0}, {"starfish", 5}, {"octopuses", 8},
}
