package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
)

// A Spec's JSON form has the keys and values of its YAML form (the yaml
// tags of Spec), so a tool is written alike in a training config, in
// cmd/play's -tool flag and in an env server's reset data:
//
//	{"name": "python", "max_uses": 5, "timeout": "5s"}
//
// Durations are Go duration strings; unset keys take the defaults.

// specKey is one key of Spec's YAML (and JSON) form.
type specKey struct {
	index int // field index in Spec
	name  string
}

var durationType = reflect.TypeOf(time.Duration(0))

// specKeys lists Spec's keys in field order.
func specKeys() []specKey {
	t := reflect.TypeOf(Spec{})
	out := make([]specKey, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		out = append(out, specKey{i, name})
	}
	return out
}

// SpecKeys lists the keys of a Spec's YAML and JSON forms.
func SpecKeys() []string {
	var out []string
	for _, k := range specKeys() {
		out = append(out, k.name)
	}
	return out
}

// MarshalJSON writes s with its YAML keys, leaving out unset ones (name is
// always written).
func (s Spec) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	v := reflect.ValueOf(s)
	for _, k := range specKeys() {
		f := v.Field(k.index)
		switch {
		case f.IsZero() && k.name != "name":
		case f.Type() == durationType:
			m[k.name] = time.Duration(f.Int()).String()
		default:
			m[k.name] = f.Interface()
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a JSON object with Spec's YAML keys. Unknown keys
// and values of the wrong kind are errors that begin with the key, such as
// `max_uses = "five": want an integer`, so a caller can prefix the tool's
// position in its list. Values are not range-checked here: that is
// Validate's job.
func (s *Spec) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return fmt.Errorf(`a tool is a JSON object such as {"name": "python", "max_uses": 5}, not %s`, clipJSON(b))
	}
	byName := map[string]specKey{}
	for _, k := range specKeys() {
		byName[k.name] = k
	}
	var out Spec
	v := reflect.ValueOf(&out).Elem()
	for _, name := range slices.Sorted(maps.Keys(m)) {
		raw := m[name]
		k, ok := byName[name]
		if !ok {
			return fmt.Errorf("%q: unknown key (allowed: %s)", clipJSON([]byte(name)), strings.Join(SpecKeys(), ", "))
		}
		f := v.Field(k.index)
		if f.Type() == durationType {
			var text string
			if err := json.Unmarshal(raw, &text); err != nil {
				return fmt.Errorf(`%s = %s: want a duration string such as "5s"`, name, clipJSON(raw))
			}
			if text == "" {
				continue
			}
			d, err := time.ParseDuration(text)
			if err != nil {
				return fmt.Errorf(`%s = %s: want a duration string such as "5s" or "500ms"`, name, clipJSON(raw))
			}
			f.SetInt(int64(d))
			continue
		}
		p := reflect.New(f.Type())
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			return fmt.Errorf("%s = %s: want %s", name, clipJSON(raw), kindWord(f.Type()))
		}
		f.Set(p.Elem())
	}
	*s = out
	return nil
}

func kindWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of strings"
	}
	return t.String()
}

// clipJSON shortens client-supplied JSON quoted in an error.
func clipJSON(b []byte) string {
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
