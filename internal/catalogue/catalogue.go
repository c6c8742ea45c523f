// Package catalogue holds what the operator's catalogues (markets: spot
// pairs; contracts: perpetual futures) share: a JSON file in the data
// directory that replaces embedded defaults, read strictly.
package catalogue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Load parses dataDir/fileName when it exists and answers defaults()
// otherwise; a parse error names the file.
func Load[T any](dataDir, fileName string, defaults func() T, parse func([]byte) (T, error)) (T, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, fileName))
	if errors.Is(err, os.ErrNotExist) {
		return defaults(), nil
	}
	if err != nil {
		var zero T
		return zero, err
	}
	c, err := parse(b)
	if err != nil {
		return c, fmt.Errorf("%s: %w", fileName, err)
	}
	return c, nil
}

// Decode reads JSON into v, refusing fields v does not have (an operator's
// misspelt setting is an error, not a silent default).
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
