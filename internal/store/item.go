package store

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// Item is one stored item: attribute name → value. The value types mirror
// DynamoDB's: string (S), decimal.Decimal (N; int, int32, int64 and uint64 are
// accepted on write and read back as decimal.Decimal), bool (BOOL), []byte
// (B), nil (NULL), []any (L) and map[string]any (M). Numbers are decimals,
// never floats, so money is exact in both adapters.
type Item map[string]any

// Key returns the item's primary key.
func (it Item) Key() Key { return Key{PK: it.Str(AttrPK), SK: it.Str(AttrSK)} }

// Str returns a string attribute, or "" when absent or of another type.
func (it Item) Str(name string) string {
	s, _ := it[name].(string)
	return s
}

// Dec returns a number attribute, or zero when absent.
func (it Item) Dec(name string) decimal.Decimal {
	switch v := it[name].(type) {
	case decimal.Decimal:
		return v
	case int:
		return decimal.NewFromInt(int64(v))
	case int64:
		return decimal.NewFromInt(v)
	case int32:
		return decimal.NewFromInt(int64(v))
	case uint64:
		return decimal.NewFromUint64(v)
	}
	return decimal.Zero
}

// Int returns a number attribute as int64 (truncated), or 0 when absent.
func (it Item) Int(name string) int64 { return it.Dec(name).IntPart() }

// Bool returns a boolean attribute, or false when absent.
func (it Item) Bool(name string) bool {
	b, _ := it[name].(bool)
	return b
}

// Bytes returns a binary attribute, or nil.
func (it Item) Bytes(name string) []byte {
	b, _ := it[name].([]byte)
	return b
}

// Has reports whether the attribute is present.
func (it Item) Has(name string) bool {
	_, ok := it[name]
	return ok
}

// Clone returns a deep copy of the item.
func (it Item) Clone() Item {
	if it == nil {
		return nil
	}
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return append([]byte(nil), x...)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	}
	return v
}

// Normalize checks every value's type and converts integers to
// decimal.Decimal and []string to []any, so both adapters hold the same
// representation. It returns an ErrInvalid error for unsupported types.
func Normalize(it Item) (Item, error) {
	out := make(Item, len(it))
	for k, v := range it {
		nv, err := NormalizeValue(v)
		if err != nil {
			return nil, fmt.Errorf("%w: attribute %q: %v", ErrInvalid, k, err)
		}
		out[k] = nv
	}
	return out, nil
}

// NormalizeValue converts one value to its canonical type.
func NormalizeValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool:
		return x, nil
	case decimal.Decimal:
		return x, nil
	case int:
		return decimal.NewFromInt(int64(x)), nil
	case int32:
		return decimal.NewFromInt(int64(x)), nil
	case int64:
		return decimal.NewFromInt(x), nil
	case uint64:
		return decimal.NewFromUint64(x), nil
	case []byte:
		return append([]byte(nil), x...), nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			ne, err := NormalizeValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = ne
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ne, err := NormalizeValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = ne
		}
		return out, nil
	case Item:
		return NormalizeValue(map[string]any(x))
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// ValidateItem checks that an item can be written: it has non-empty string
// pk and sk, index key attributes are strings, ttl is a number.
func ValidateItem(it Item) error {
	for _, a := range []string{AttrPK, AttrSK} {
		s, ok := it[a].(string)
		if !ok || s == "" {
			return fmt.Errorf("%w: attribute %q must be a non-empty string", ErrInvalid, a)
		}
	}
	for _, a := range []string{AttrGSI1PK, AttrGSI1SK, AttrGSI2PK, AttrGSI2SK} {
		if v, ok := it[a]; ok {
			if s, isStr := v.(string); !isStr || s == "" {
				return fmt.Errorf("%w: index attribute %q must be a non-empty string", ErrInvalid, a)
			}
		}
	}
	if v, ok := it[AttrTTL]; ok {
		if _, isNum := v.(decimal.Decimal); !isNum {
			return fmt.Errorf("%w: attribute %q must be a number", ErrInvalid, AttrTTL)
		}
	}
	return nil
}

// ValidateKey checks a key.
func ValidateKey(k Key) error {
	if k.PK == "" || k.SK == "" {
		return fmt.Errorf("%w: key needs non-empty pk and sk", ErrInvalid)
	}
	return nil
}

// SortedNames returns the attribute names in sorted order (for deterministic
// encodings and expressions).
func (it Item) SortedNames() []string {
	names := make([]string, 0, len(it))
	for k := range it {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
