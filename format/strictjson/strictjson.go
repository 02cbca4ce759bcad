// Package strictjson decodes JSON documents strictly into Go structs and,
// unlike encoding/json alone, names the JSON path of the field at fault
// ("stages[1].match.parts[0].tc") when a field is unknown, has the wrong
// type or is rejected by the field type's own UnmarshalJSON/UnmarshalText.
// Format files and match sheets share it so that both report bad input the
// same way.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"arbiter"
)

// Root is the Field of an error about the document as a whole (a list
// where an object is wanted, say).
const Root = "$"

// Decode reads one JSON value from r into v (a pointer to a struct). Errors
// are *arbiter.Error with code EINVALID, a non-empty Field and a rule:
// prefix+".syntax" (Field "line:column"), ".unknown_field", ".type" or
// ".value" (Field the JSON path, Root for the whole document). On error v
// may be partly filled and must not be used.
func Decode(r io.Reader, v any, prefix string) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return arbiter.FieldError("input", prefix+".syntax", "reading input: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return syntaxError(data, err, prefix)
	}
	if dec.More() {
		off := int(dec.InputOffset())
		for off < len(data) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
			off++
		}
		return arbiter.FieldError(position(data, off), prefix+".syntax", "unexpected data after the JSON value")
	}
	if err := check(doc, reflect.TypeOf(v).Elem(), "", prefix); err != nil {
		return err
	}
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		// check accepted the document, so this is a case it does not model.
		return arbiter.FieldError(Root, prefix+".value", "%v", err)
	}
	return nil
}

// position is the "line:column" of byte offset off in data (both 1-based).
func position(data []byte, off int) string {
	line, col := 1, 1
	for _, b := range data[:max(0, min(off, len(data)))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}

func syntaxError(data []byte, err error, prefix string) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the offending byte; report its own column.
		return arbiter.FieldError(position(data, int(se.Offset)-1), prefix+".syntax", "invalid JSON: %v", se)
	case errors.Is(err, io.EOF):
		return arbiter.FieldError(position(data, len(data)), prefix+".syntax", "empty input: want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return arbiter.FieldError(position(data, len(data)), prefix+".syntax", "invalid JSON: the input ends inside a value (an unclosed object, list or string)")
	}
	return arbiter.FieldError(position(data, len(data)), prefix+".syntax", "invalid JSON: %v", err)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

// at names path in an error: Root for the document itself.
func at(path string) string {
	if path == "" {
		return Root
	}
	return path
}

// join appends an object key to path: "a.b", or a quoted key where the
// plain one would be ambiguous or empty (`a[""]`, `a["x.y"]`).
func join(path, name string) string {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	default:
		return "an object"
	}
}

// check walks the generic document against type t.
func check(v any, t reflect.Type, path, prefix string) error {
	if v == nil {
		return nil // null leaves the zero value, as encoding/json does
	}
	pt := reflect.PointerTo(t)
	if isNumber(t.Kind()) && pt.Implements(jsonUnmarshaler) {
		// A number type with its own decoding (arbiter.Points) may accept
		// "7.5" in quotes; in a strict file a string is still the wrong type.
		if _, ok := v.(json.Number); !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a number, got %s", describe(v))
		}
	}
	if pt.Implements(jsonUnmarshaler) {
		raw, _ := json.Marshal(v)
		if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			return valueError(err, path, prefix)
		}
		return nil
	}
	if pt.Implements(textUnmarshaler) {
		s, ok := v.(string)
		if !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a string, got %s", describe(v))
		}
		if err := reflect.New(t).Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return valueError(err, path, prefix)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return check(v, t.Elem(), path, prefix)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want an object, got %s", describe(v))
		}
		fields := map[string]reflect.Type{}
		structFields(t, fields)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				return arbiter.FieldError(join(path, k), prefix+".unknown_field", "unknown field %q", k)
			}
			if err := check(obj[k], ft, join(path, k), prefix); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a list, got %s", describe(v))
		}
		for i, e := range list {
			if err := check(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i), prefix); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want an object, got %s", describe(v))
		}
		for k, e := range obj {
			if err := check(e, t.Elem(), join(path, k), prefix); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if _, ok := v.(string); !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a string, got %s", describe(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want true or false, got %s", describe(v))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a whole number, got %s", describe(v))
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return arbiter.FieldError(at(path), prefix+".type", "want a whole number, got %s", n)
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return arbiter.FieldError(at(path), prefix+".type", "want a number, got %s", describe(v))
		}
	case reflect.Interface:
		return nil
	}
	return nil
}

// structFields adds the JSON fields of struct type t to fields by name,
// with those of embedded structs promoted as encoding/json promotes them
// (an outer field wins over an embedded one of the same name).
func structFields(t reflect.Type, fields map[string]reflect.Type) {
	var embedded []reflect.Type
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				embedded = append(embedded, et)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	for _, et := range embedded {
		inner := map[string]reflect.Type{}
		structFields(et, inner)
		for k, v := range inner {
			if _, ok := fields[k]; !ok {
				fields[k] = v
			}
		}
	}
}

func valueError(err error, path, prefix string) error {
	if e, ok := err.(*arbiter.Error); ok {
		c := *e
		c.Field = at(path)
		if c.Rule == "" {
			c.Rule = prefix + ".value"
		}
		return &c
	}
	return arbiter.FieldError(at(path), prefix+".value", "%v", err)
}
