package train

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/envs"
)

// LoadFile reads a config: the defaults, then the file's base (if it has
// a base: key) and the file itself decoded strictly over them (an unknown
// key is an error naming it, its section and the valid keys), then the
// key=value overrides, then Validate.
func LoadFile(path string, overrides []string) (Config, error) {
	cfg := DefaultConfig()
	if err := decodeFile(&cfg, path, nil); err != nil {
		return Config{}, err
	}
	return finish(cfg, overrides)
}

// Parse decodes YAML config data over the defaults, applies overrides and
// validates. A base: key names a file relative to the working directory.
func Parse(data []byte, overrides []string) (Config, error) {
	cfg := DefaultConfig()
	if err := decode(&cfg, data, ".", nil); err != nil {
		return Config{}, err
	}
	return finish(cfg, overrides)
}

func finish(cfg Config, overrides []string) (Config, error) {
	for _, kv := range overrides {
		if err := cfg.Set(kv); err != nil {
			return Config{}, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// maxBaseDepth bounds a chain of base files.
const maxBaseDepth = 16

// maxConfigBytes bounds a config file (and each base): the shipped ones
// are under 10 KiB, so 1 MiB is room for any hand-written config, and a
// device or a stream that never ends (base: /dev/zero, -config /dev/stdin
// fed from /dev/urandom) is refused after reading that much.
const maxConfigBytes = 1 << 20

// decodeFile decodes the file at path (after its base) over cfg; chain is
// the files that named it, for the cycle check.
func decodeFile(cfg *Config, path string, chain []string) error {
	data, err := readConfigFile(path)
	if err != nil {
		return err
	}
	if isEmptyYAML(data) {
		return fmt.Errorf("config %s is empty: it would start a run with every default; give the settings, or base: rebn_guess for the main job's recipe (write {} to mean the defaults)", path)
	}
	if err := decode(cfg, data, filepath.Dir(path), append(chain, path)); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

// readConfigFile reads the config file at path, at most maxConfigBytes of
// it.
func readConfigFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("config %s: no such file (configs/ holds the shipped ones)", path)
		}
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("config %s is larger than %d KiB: not a config file (a config is a short YAML file such as configs/rebn_guess.yaml)", path, maxConfigBytes>>10)
	}
	return data, nil
}

// file is what a config file holds: a Config, and optionally the base
// file it starts from.
type file struct {
	Base   string `yaml:"base"` // a config file decoded first, relative to this file's directory
	Config `yaml:",inline"`
}

// decode decodes data over cfg: first the file its base: key names
// (relative to dir), then data itself, strictly.
func decode(cfg *Config, data []byte, dir string, chain []string) error {
	var head struct {
		Base string `yaml:"base"`
	}
	if yaml.Unmarshal(data, &head) == nil && head.Base != "" {
		p := BasePath(head.Base, dir)
		for _, c := range chain {
			if sameFile(c, p) {
				return fmt.Errorf("base: %s: the chain of bases loops (%s → %s)", head.Base, strings.Join(chain, " → "), p)
			}
		}
		if len(chain) >= maxBaseDepth {
			return fmt.Errorf("base: %s: more than %d nested bases", head.Base, maxBaseDepth)
		}
		if err := decodeFile(cfg, p, chain); err != nil {
			return fmt.Errorf("base: %w", err)
		}
	}
	clearReplacedEnv(cfg, data)
	f := file{Config: *cfg}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return explainYAML(err, data)
	}
	*cfg = f.Config
	return nil
}

// clearReplacedEnv drops what a file's env section replaces from the
// config it is decoded over (the defaults, its base): env.mix replaces
// env.id and env.options (each entry has its own), env.id replaces
// env.mix. A file that sets both keeps both, and Validate refuses them.
func clearReplacedEnv(cfg *Config, data []byte) {
	var head struct {
		Env map[string]yaml.Node `yaml:"env"`
	}
	if yaml.Unmarshal(data, &head) != nil {
		return // the strict decode reports it
	}
	_, id := head.Env["id"]
	_, mix := head.Env["mix"]
	_, opts := head.Env["options"]
	switch {
	case mix && !id:
		cfg.Env.ID = ""
		if !opts {
			cfg.Env.Options = nil
		}
	case id && !mix:
		cfg.Env.Mix = nil
	}
}

// isEmptyYAML reports whether data holds no YAML value: nothing, blanks
// and comments only, or a lone null.
func isEmptyYAML(data []byte) bool {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return false // decode reports the syntax error
	}
	if len(n.Content) == 0 {
		return true
	}
	v := n.Content[0]
	return v.Kind == yaml.ScalarNode && v.Tag == "!!null"
}

func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// BasePath resolves the file a base: key names: relative to dir, the
// directory of the file holding the key (with or without .yaml), or, when
// no such file exists, the name as given.
func BasePath(name, dir string) string {
	if filepath.IsAbs(name) {
		return name
	}
	for _, cand := range []string{name, name + ".yaml"} {
		if p := filepath.Join(dir, cand); fileExists(p) {
			return p
		}
	}
	return filepath.Join(dir, name)
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

var lineNumber = regexp.MustCompile(`^line (\d+):`)

// removedKeys are keys that configs once had, each with what took its
// place: a file or -set that names one gets this in place of "unknown key".
var removedKeys = map[string]string{
	"optim.total_steps": "the learning rate's cosine decay now follows iterations (iteration i trains at the cosine's value " +
		"at i/iterations, reaching optim.min_lr_frac at the last), whatever the optimizer steps an iteration makes; delete " +
		"the key (in a run directory's config.yaml too: a run from before this change resumes with optim.cosine false, " +
		"and is refused with cosine true, whose remaining learning rates would change)",
}

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type (\S+)`)

// explainYAML rewrites yaml.v3's errors about unknown keys so they name the
// section and list the valid keys.
func explainYAML(err error, data []byte) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("YAML: %w", err)
	}
	lines := strings.Split(string(data), "\n")
	var msgs []string
	for _, e := range te.Errors {
		m := unknownField.FindStringSubmatch(e)
		if m == nil {
			// A value of the wrong type: show the offending line.
			if l := lineNumber.FindStringSubmatch(e); l != nil {
				if n, _ := strconv.Atoi(l[1]); n >= 1 && n <= len(lines) {
					e += fmt.Sprintf(" (the line reads %q)", strings.TrimSpace(lines[n-1]))
				}
			}
			msgs = append(msgs, e)
			continue
		}
		section, valid := sectionKeys(m[3])
		if why, ok := removedKeys[strings.TrimPrefix(section, "section ")+"."+m[2]]; ok {
			msgs = append(msgs, fmt.Sprintf("line %s: key %q in %s was removed: %s", m[1], m[2], section, why))
			continue
		}
		msgs = append(msgs, fmt.Sprintf("line %s: unknown key %q in %s (valid keys: %s)", m[1], m[2], section, strings.Join(valid, ", ")))
	}
	return errors.New(strings.Join(msgs, "; "))
}

// sectionKeys returns the YAML section holding the struct type typeName
// (as yaml.v3 prints it, e.g. "algo.Config") and its keys.
func sectionKeys(typeName string) (section string, keys []string) {
	root := reflect.TypeFor[Config]()
	if typeName == reflect.TypeFor[file]().String() || typeName == root.String() {
		return "the top level", yamlKeys(reflect.TypeFor[file]())
	}
	for i := 0; i < root.NumField(); i++ {
		f := root.Field(i)
		if f.Type.String() == typeName {
			return "section " + yamlName(f), yamlKeys(f.Type)
		}
	}
	return typeName, nil
}

func yamlName(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("yaml"), ",")[0]
}

func inline(f reflect.StructField) bool {
	return f.Anonymous && strings.Contains(f.Tag.Get("yaml"), ",inline")
}

// yamlKeys lists the keys of struct type t, those of inlined structs
// included.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch n := yamlName(f); {
		case inline(f):
			keys = append(keys, yamlKeys(f.Type)...)
		case n != "" && n != "-" && f.IsExported():
			keys = append(keys, n)
		}
	}
	sort.Strings(keys)
	return keys
}

// Set applies one override "section.key=value" (or "key=value" at the top
// level; "env.options.NAME=value" sets one env option and
// "env.options={a: 1, b: x}" replaces them all; eval.options and
// warmup.options likewise). The value is parsed as
// YAML, so numbers, booleans, strings and maps all work.
func (c *Config) Set(kv string) error {
	key, val, ok := strings.Cut(kv, "=")
	if len(key) > envs.ExcerptBytes {
		return fmt.Errorf("override %s: no config key is that long (go run ./cmd/train -config NAME -print-config lists them)", envs.Excerpt(kv))
	}
	if !ok || key == "" {
		return fmt.Errorf("override %s: want key=value, e.g. algo.gamma=0.9", envs.Excerpt(kv))
	}
	parts := strings.Split(key, ".")
	if len(parts) >= 3 && (parts[0] == "env" || parts[0] == "eval" || parts[0] == "warmup") && parts[1] == "options" {
		sec := parts[0] + ".options"
		if len(parts) > 3 {
			return fmt.Errorf("override %s: %s.%s is one option, it has no keys: set %s.%s=VALUE (a YAML value, e.g. %s.%s={%s: 1})", key, sec, parts[2], sec, parts[2], sec, parts[2], parts[3])
		}
		var v any
		if err := yaml.Unmarshal([]byte(val), &v); err != nil {
			return fmt.Errorf("override %s: value %s: %v", key, envs.Excerpt(val), short(err))
		}
		opts := &c.Env.Options
		switch parts[0] {
		case "eval":
			opts = &c.Eval.Options
		case "warmup":
			opts = &c.Warmup.Options
		}
		if *opts == nil {
			*opts = map[string]any{}
		}
		(*opts)[parts[2]] = v
		return nil
	}
	target, err := c.field(key)
	if err != nil {
		return fmt.Errorf("override %s: %w", key, err)
	}
	// Decode the value as YAML into a fresh value of the field's type.
	ptr := reflect.New(target.Type())
	node := yaml.Node{}
	if err := yaml.Unmarshal([]byte(val), &node); err != nil {
		return fmt.Errorf("override %s: value %s: %v", key, envs.Excerpt(val), short(err))
	}
	if len(node.Content) == 0 {
		return fmt.Errorf("override %s: empty value", key)
	}
	if err := node.Content[0].Decode(ptr.Interface()); err != nil {
		return fmt.Errorf("override %s: value %s is not a valid %s", key, envs.Excerpt(val), describeKind(target.Type()))
	}
	if ptr.Elem().Kind() == reflect.Slice && ptr.Elem().Len() == 0 {
		ptr.Elem().Set(reflect.Zero(target.Type())) // [] is the unset list
	}
	target.Set(ptr.Elem())
	switch {
	case key == "env.mix" && len(c.Env.Mix) > 0:
		c.Env.ID, c.Env.Options = "", nil
	case key == "env.id" && c.Env.ID != "":
		c.Env.Mix = nil
	}
	return nil
}

// field is the settable field of c that key ("section.key" or "key")
// names; not a section.
func (c *Config) field(key string) (reflect.Value, error) {
	parts := strings.Split(key, ".")
	target := reflect.ValueOf(c).Elem()
	for depth, p := range parts {
		if target.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("%s is a value, not a section", strings.Join(parts[:depth], "."))
		}
		f, found := fieldByYAML(target, p)
		if !found {
			where := "the top level"
			if depth > 0 {
				where = "section " + strings.Join(parts[:depth], ".")
			}
			if why, ok := removedKeys[strings.Join(parts[:depth+1], ".")]; ok {
				return reflect.Value{}, fmt.Errorf("key %s in %s was removed: %s", envs.Excerpt(p), where, why)
			}
			return reflect.Value{}, fmt.Errorf("unknown key %s in %s (valid keys: %s)", envs.Excerpt(p), where, strings.Join(yamlKeys(target.Type()), ", "))
		}
		target = f
	}
	if target.Kind() == reflect.Struct {
		return reflect.Value{}, fmt.Errorf("%s is a section: set one of its keys (%s)", key, strings.Join(yamlKeys(target.Type()), ", "))
	}
	return target, nil
}

// fieldByYAML finds the field of struct v whose key is name, looking into
// inlined structs.
func fieldByYAML(v reflect.Value, name string) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if inline(f) {
			if fv, ok := fieldByYAML(v.Field(i), name); ok {
				return fv, true
			}
			continue
		}
		if n := yamlName(f); n == name && n != "-" && f.IsExported() {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func describeKind(t reflect.Type) string {
	if t == reflect.TypeFor[Remotes]() {
		return "env server address (ws://host:port) or list of them, e.g. [ws://a:8000, ws://b:8000]"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "whole number"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.String:
		return "string"
	case reflect.Map:
		return "map of options, e.g. {style: brief, max_turns: 6}"
	}
	return t.String()
}

// short is err's message, cut like envs.Excerpt when it is long (a YAML
// error may quote the whole value).
func short(err error) string {
	if m := err.Error(); len(m) > 4*envs.ExcerptBytes {
		return strings.ToValidUTF8(m[:4*envs.ExcerptBytes], "") + "…"
	}
	return err.Error()
}

// ResolveConfigPath finds a config: the path as given, or a bare name (with
// or without .yaml) in dir.
func ResolveConfigPath(name, dir string) string {
	if _, err := os.Stat(name); err == nil {
		return name
	}
	if !strings.ContainsAny(name, `/\`) {
		for _, cand := range []string{name, name + ".yaml"} {
			p := filepath.Join(dir, cand)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return name
}

// Marshal renders cfg as YAML (saved in every run directory).
func (c *Config) Marshal() ([]byte, error) { return yaml.Marshal(c) }
