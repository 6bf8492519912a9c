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
)

// LoadFile reads a config: the defaults, then the YAML file decoded
// strictly over them (an unknown key is an error naming it, its section and
// the valid keys), then the key=value overrides, then Validate.
func LoadFile(path string, overrides []string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Config{}, fmt.Errorf("config %s: no such file (configs/ holds the shipped ones)", path)
		}
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	cfg, err := Parse(data, overrides)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// Parse decodes YAML config data over the defaults, applies overrides and
// validates.
func Parse(data []byte, overrides []string) (Config, error) {
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, explainYAML(err, data)
	}
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

var lineNumber = regexp.MustCompile(`^line (\d+):`)

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type train\.(\w+)`)

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
		msgs = append(msgs, fmt.Sprintf("line %s: unknown key %q in %s (valid keys: %s)", m[1], m[2], section, strings.Join(valid, ", ")))
	}
	return errors.New(strings.Join(msgs, "; "))
}

// sectionKeys returns the YAML section holding struct type name and its keys.
func sectionKeys(typeName string) (section string, keys []string) {
	root := reflect.TypeOf(Config{})
	if typeName == root.Name() {
		return "the top level", yamlKeys(root)
	}
	for i := 0; i < root.NumField(); i++ {
		f := root.Field(i)
		if f.Type.Name() == typeName {
			return "section " + yamlName(f), yamlKeys(f.Type)
		}
	}
	return typeName, nil
}

func yamlName(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("yaml"), ",")[0]
}

func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if n := yamlName(t.Field(i)); n != "" && n != "-" {
			keys = append(keys, n)
		}
	}
	sort.Strings(keys)
	return keys
}

// Set applies one override "section.key=value" (or "key=value" at the top
// level; "env.options.NAME=value" sets one env option and
// "env.options={a: 1, b: x}" replaces them all). The value is parsed as
// YAML, so numbers, booleans, strings and maps all work.
func (c *Config) Set(kv string) error {
	key, val, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return fmt.Errorf("override %q: want key=value, e.g. algo.gamma=0.9", kv)
	}
	parts := strings.Split(key, ".")
	if len(parts) == 3 && parts[0] == "env" && parts[1] == "options" {
		var v any
		if err := yaml.Unmarshal([]byte(val), &v); err != nil {
			return fmt.Errorf("override %s: value %q: %v", key, val, err)
		}
		if c.Env.Options == nil {
			c.Env.Options = map[string]any{}
		}
		c.Env.Options[parts[2]] = v
		return nil
	}
	target := reflect.ValueOf(c).Elem()
	for depth, p := range parts {
		f, found := fieldByYAML(target, p)
		if !found {
			where, valid := "the top level", yamlKeys(target.Type())
			if depth > 0 {
				where = "section " + strings.Join(parts[:depth], ".")
			}
			return fmt.Errorf("override %s: unknown key %q in %s (valid keys: %s)", key, p, where, strings.Join(valid, ", "))
		}
		target = f
	}
	if target.Kind() == reflect.Struct {
		return fmt.Errorf("override %s: %s is a section: set one of its keys (%s)", key, key, strings.Join(yamlKeys(target.Type()), ", "))
	}
	// Decode the value as YAML into a fresh value of the field's type.
	ptr := reflect.New(target.Type())
	node := yaml.Node{}
	if err := yaml.Unmarshal([]byte(val), &node); err != nil {
		return fmt.Errorf("override %s: value %q: %v", key, val, err)
	}
	if len(node.Content) == 0 {
		return fmt.Errorf("override %s: empty value", key)
	}
	if err := node.Content[0].Decode(ptr.Interface()); err != nil {
		return fmt.Errorf("override %s: value %q is not a valid %s", key, val, describeKind(target.Type()))
	}
	target.Set(ptr.Elem())
	return nil
}

func fieldByYAML(v reflect.Value, name string) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	for i := 0; i < v.NumField(); i++ {
		if yamlName(v.Type().Field(i)) == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func describeKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "whole number"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.String:
		return "string"
	}
	return t.String()
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
