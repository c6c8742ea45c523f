package store

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// UpdateActionKind is what an update action does to one attribute.
type UpdateActionKind int

// Update action kinds.
const (
	ActSet UpdateActionKind = iota + 1
	// ActSetIfMissing sets the attribute only when it is absent.
	ActSetIfMissing
	// ActAdd adds a number to a number attribute (absent counts as zero).
	ActAdd
	ActRemove
)

// UpdateAction is one action on one top-level attribute.
type UpdateAction struct {
	Kind  UpdateActionKind
	Attr  string
	Value any // for Set, SetIfMissing and Add (decimal.Decimal for Add)
}

// Update is an ordered list of actions on distinct top-level attributes.
// Build it with NewUpdate().Set(...).Add(...).Remove(...).
type Update struct {
	Actions []UpdateAction
}

// NewUpdate starts an empty update.
func NewUpdate() *Update { return &Update{} }

// Set sets an attribute.
func (u *Update) Set(attr string, v any) *Update {
	u.Actions = append(u.Actions, UpdateAction{Kind: ActSet, Attr: attr, Value: v})
	return u
}

// SetIfMissing sets an attribute only if the item does not have it yet.
func (u *Update) SetIfMissing(attr string, v any) *Update {
	u.Actions = append(u.Actions, UpdateAction{Kind: ActSetIfMissing, Attr: attr, Value: v})
	return u
}

// Add adds delta (which may be negative) to a number attribute.
func (u *Update) Add(attr string, delta decimal.Decimal) *Update {
	u.Actions = append(u.Actions, UpdateAction{Kind: ActAdd, Attr: attr, Value: delta})
	return u
}

// AddInt adds an integer delta to a number attribute.
func (u *Update) AddInt(attr string, delta int64) *Update {
	return u.Add(attr, decimal.NewFromInt(delta))
}

// Remove deletes an attribute.
func (u *Update) Remove(attr string) *Update {
	u.Actions = append(u.Actions, UpdateAction{Kind: ActRemove, Attr: attr})
	return u
}

// Validate checks the update: at least one action, no key attributes, each
// attribute at most once, supported value types.
func (u *Update) Validate() error {
	if u == nil || len(u.Actions) == 0 {
		return fmt.Errorf("%w: empty update", ErrInvalid)
	}
	seen := make(map[string]bool, len(u.Actions))
	for i, a := range u.Actions {
		if a.Attr == "" {
			return fmt.Errorf("%w: update action %d has no attribute", ErrInvalid, i)
		}
		if a.Attr == AttrPK || a.Attr == AttrSK {
			return fmt.Errorf("%w: cannot update key attribute %q", ErrInvalid, a.Attr)
		}
		if seen[a.Attr] {
			return fmt.Errorf("%w: attribute %q updated twice", ErrInvalid, a.Attr)
		}
		seen[a.Attr] = true
		switch a.Kind {
		case ActSet, ActSetIfMissing:
			if _, err := NormalizeValue(a.Value); err != nil {
				return fmt.Errorf("%w: attribute %q: %v", ErrInvalid, a.Attr, err)
			}
		case ActAdd:
			if _, ok := a.Value.(decimal.Decimal); !ok {
				return fmt.Errorf("%w: add to %q needs a decimal", ErrInvalid, a.Attr)
			}
		case ActRemove:
		default:
			return fmt.Errorf("%w: unknown update action %d", ErrInvalid, a.Kind)
		}
	}
	return nil
}

// Apply returns the item that results from applying u to cur (nil when the
// item does not exist yet) under key. Adapters that hold items themselves use
// it. It fails with ErrInvalid when Add meets a non-number attribute.
func (u *Update) Apply(key Key, cur Item) (Item, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	next := cur.Clone()
	if next == nil {
		next = Item{AttrPK: key.PK, AttrSK: key.SK}
	}
	for _, a := range u.Actions {
		switch a.Kind {
		case ActSet:
			v, _ := NormalizeValue(a.Value)
			next[a.Attr] = v
		case ActSetIfMissing:
			if _, ok := next[a.Attr]; !ok {
				v, _ := NormalizeValue(a.Value)
				next[a.Attr] = v
			}
		case ActAdd:
			delta := a.Value.(decimal.Decimal)
			switch old := next[a.Attr].(type) {
			case nil:
				next[a.Attr] = delta
			case decimal.Decimal:
				next[a.Attr] = old.Add(delta)
			default:
				return nil, fmt.Errorf("%w: add to non-number attribute %q", ErrInvalid, a.Attr)
			}
		case ActRemove:
			delete(next, a.Attr)
		}
	}
	if err := ValidateItem(next); err != nil {
		return nil, err
	}
	return next, nil
}
