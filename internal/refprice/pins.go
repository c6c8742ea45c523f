package refprice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Pin is an operator's fixed reference price for an index: while it is in
// force the service publishes it instead of the computed price (which goes
// on being computed, so an unpin resumes from the market).
type Pin struct {
	Price decimal.Decimal `json:"price"`
	// Note says why (shown by `tenger prices list`).
	Note string `json:"note,omitempty"`
}

// PinSource reads the operator's pins.
type PinSource interface {
	// Read returns the pins and a stamp that changes when they do.
	Read(ctx context.Context) (pins map[string]Pin, stamp string, err error)
}

// PinFile is the pins' file in a data directory.
const PinFile = "prices.json"

type pinDoc struct {
	Pins map[string]Pin `json:"pins"`
}

// ParsePins parses and checks a pins document: index symbols in lower case
// ("btcusdt"), positive prices.
func ParsePins(text []byte) (map[string]Pin, error) {
	var d pinDoc
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("refprice: pins: %w", err)
	}
	for sym, p := range d.Pins {
		if sym == "" || sym != strings.ToLower(sym) {
			return nil, fmt.Errorf("refprice: pins: %q: index symbols are lower case, as btcusdt", sym)
		}
		if !p.Price.IsPositive() {
			return nil, fmt.Errorf("refprice: pins: %s: the price must be positive", sym)
		}
	}
	if d.Pins == nil {
		d.Pins = map[string]Pin{}
	}
	return d.Pins, nil
}

// FormatPins is the document ParsePins reads.
func FormatPins(pins map[string]Pin) []byte {
	if pins == nil {
		pins = map[string]Pin{}
	}
	b, _ := json.MarshalIndent(pinDoc{Pins: pins}, "", "  ")
	return append(b, '\n')
}

// FileSource reads DIR/prices.json (no file: no pins).
type FileSource struct{ Dir string }

// Read implements PinSource; the stamp is the file's text.
func (f FileSource) Read(context.Context) (map[string]Pin, string, error) {
	text, err := os.ReadFile(filepath.Join(f.Dir, PinFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	pins, err := ParsePins(text)
	return pins, string(text), err
}

// WritePinFile replaces DIR/prices.json atomically (write, sync, rename),
// so the running service never reads half a file.
func WritePinFile(dir string, pins map[string]Pin) error {
	path := filepath.Join(dir, PinFile)
	tmp, err := os.CreateTemp(dir, ".prices-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(FormatPins(pins)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// The pins' item of the AWS runtime (written by `tenger prices --aws`):
// pk CONFIG#prices, sk PINS, attribute "pins" holding the file's JSON.
var pinKey = store.Key{PK: "CONFIG#prices", SK: "PINS"}

// StoreSource reads the pins' item from the table.
type StoreSource struct{ Store store.Store }

// Read implements PinSource; the stamp is the item's text.
func (s StoreSource) Read(ctx context.Context) (map[string]Pin, string, error) {
	it, err := s.Store.Get(ctx, pinKey)
	if errors.Is(err, store.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	text := it.Str("pins")
	pins, err := ParsePins([]byte(text))
	return pins, text, err
}

// WritePins replaces the pins' item.
func (s StoreSource) WritePins(ctx context.Context, pins map[string]Pin) error {
	return s.Store.Put(ctx, store.Item{store.AttrPK: pinKey.PK, store.AttrSK: pinKey.SK, "pins": string(FormatPins(pins))}, nil)
}
