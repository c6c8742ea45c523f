package store

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// CmpOp is a comparison operator.
type CmpOp string

// Comparison operators. Numbers compare numerically, strings as byte strings;
// other types support only CmpEq and CmpNe.
const (
	CmpEq CmpOp = "="
	CmpNe CmpOp = "<>"
	CmpLt CmpOp = "<"
	CmpLe CmpOp = "<="
	CmpGt CmpOp = ">"
	CmpGe CmpOp = ">="
)

// Cond is a typed write condition over the item's top-level attributes as they
// are before the write. A nil Cond always holds. A comparison against a
// missing attribute, or against a value of another type, is false (CmpNe
// included), which is how both adapters behave.
type Cond interface{ isCond() }

type (
	condExists    struct{ Attr string }
	condNotExists struct{ Attr string }
	condCmp       struct {
		Attr  string
		Op    CmpOp
		Value any
	}
	condBeginsWith struct{ Attr, Prefix string }
	condAnd        struct{ Conds []Cond }
	condOr         struct{ Conds []Cond }
	condNot        struct{ Cond Cond }
)

func (condExists) isCond()     {}
func (condNotExists) isCond()  {}
func (condCmp) isCond()        {}
func (condBeginsWith) isCond() {}
func (condAnd) isCond()        {}
func (condOr) isCond()         {}
func (condNot) isCond()        {}

// Exists holds when the attribute is present.
func Exists(attr string) Cond { return condExists{Attr: attr} }

// NotExists holds when the attribute is absent.
func NotExists(attr string) Cond { return condNotExists{Attr: attr} }

// ItemExists holds when the item exists.
func ItemExists() Cond { return condExists{Attr: AttrPK} }

// ItemNotExists holds when there is no item under the key.
func ItemNotExists() Cond { return condNotExists{Attr: AttrPK} }

// Compare holds when "attr op value" is true.
func Compare(attr string, op CmpOp, value any) Cond {
	return condCmp{Attr: attr, Op: op, Value: value}
}

// Eq is Compare(attr, CmpEq, value).
func Eq(attr string, value any) Cond { return Compare(attr, CmpEq, value) }

// Ge is Compare(attr, CmpGe, value).
func Ge(attr string, value any) Cond { return Compare(attr, CmpGe, value) }

// BeginsWith holds when the string attribute starts with prefix.
func BeginsWith(attr, prefix string) Cond { return condBeginsWith{Attr: attr, Prefix: prefix} }

// And holds when every condition holds.
func And(conds ...Cond) Cond { return condAnd{Conds: conds} }

// Or holds when any condition holds.
func Or(conds ...Cond) Cond { return condOr{Conds: conds} }

// Not negates a condition.
func Not(c Cond) Cond { return condNot{Cond: c} }

// VersionIs holds when the item's version counter equals v; VersionIs(0)
// holds for an item that has no version yet (including a missing item).
// Pair it with Update.Set(AttrVersion, v+1) for optimistic concurrency.
func VersionIs(v int64) Cond {
	if v == 0 {
		return NotExists(AttrVersion)
	}
	return Eq(AttrVersion, v)
}

// Visit calls the visitor functions on a condition tree; adapters that
// translate conditions (the DynamoDB adapter) use it.
type CondVisitor struct {
	Exists     func(attr string) string
	NotExists  func(attr string) string
	Compare    func(attr string, op CmpOp, value any) string
	BeginsWith func(attr, prefix string) string
}

// Render turns a condition into an expression string with the visitor's
// leaf renderers, joining with AND, OR and NOT.
func Render(c Cond, v CondVisitor) (string, error) {
	switch x := c.(type) {
	case nil:
		return "", nil
	case condExists:
		return v.Exists(x.Attr), nil
	case condNotExists:
		return v.NotExists(x.Attr), nil
	case condCmp:
		nv, err := NormalizeValue(x.Value)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return v.Compare(x.Attr, x.Op, nv), nil
	case condBeginsWith:
		return v.BeginsWith(x.Attr, x.Prefix), nil
	case condAnd, condOr:
		var parts []Cond
		sep := " AND "
		if a, ok := x.(condAnd); ok {
			parts = a.Conds
		} else {
			parts = x.(condOr).Conds
			sep = " OR "
		}
		if len(parts) == 0 {
			return "", fmt.Errorf("%w: empty AND/OR condition", ErrInvalid)
		}
		strs := make([]string, 0, len(parts))
		for _, p := range parts {
			s, err := Render(p, v)
			if err != nil {
				return "", err
			}
			strs = append(strs, "("+s+")")
		}
		return strings.Join(strs, sep), nil
	case condNot:
		s, err := Render(x.Cond, v)
		if err != nil {
			return "", err
		}
		return "NOT (" + s + ")", nil
	}
	return "", fmt.Errorf("%w: unknown condition %T", ErrInvalid, c)
}

// Eval evaluates a condition against the current item (nil when the item
// does not exist). Adapters that hold items themselves (embedded) use it.
func Eval(c Cond, it Item) (bool, error) {
	switch x := c.(type) {
	case nil:
		return true, nil
	case condExists:
		_, ok := it[x.Attr]
		return ok, nil
	case condNotExists:
		_, ok := it[x.Attr]
		return !ok, nil
	case condCmp:
		nv, err := NormalizeValue(x.Value)
		if err != nil {
			return false, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		cur, ok := it[x.Attr]
		if !ok {
			return false, nil
		}
		return compareValues(cur, x.Op, nv)
	case condBeginsWith:
		s, ok := it[x.Attr].(string)
		return ok && strings.HasPrefix(s, x.Prefix), nil
	case condAnd:
		if len(x.Conds) == 0 {
			return false, fmt.Errorf("%w: empty AND condition", ErrInvalid)
		}
		for _, p := range x.Conds {
			ok, err := Eval(p, it)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case condOr:
		if len(x.Conds) == 0 {
			return false, fmt.Errorf("%w: empty OR condition", ErrInvalid)
		}
		for _, p := range x.Conds {
			ok, err := Eval(p, it)
			if err != nil {
				return false, err
			}
			if ok {
				return true, nil
			}
		}
		return false, nil
	case condNot:
		ok, err := Eval(x.Cond, it)
		return !ok && err == nil, err
	}
	return false, fmt.Errorf("%w: unknown condition %T", ErrInvalid, c)
}

func compareValues(cur any, op CmpOp, want any) (bool, error) {
	var c int
	switch a := cur.(type) {
	case decimal.Decimal:
		b, ok := want.(decimal.Decimal)
		if !ok {
			return false, nil
		}
		c = a.Cmp(b)
	case string:
		b, ok := want.(string)
		if !ok {
			return false, nil
		}
		c = strings.Compare(a, b)
	case bool:
		b, ok := want.(bool)
		if !ok {
			return false, nil
		}
		switch op {
		case CmpEq:
			return a == b, nil
		case CmpNe:
			return a != b, nil
		}
		return false, fmt.Errorf("%w: operator %s on a boolean", ErrInvalid, op)
	default:
		return false, fmt.Errorf("%w: operator %s on %T", ErrInvalid, op, cur)
	}
	switch op {
	case CmpEq:
		return c == 0, nil
	case CmpNe:
		return c != 0, nil
	case CmpLt:
		return c < 0, nil
	case CmpLe:
		return c <= 0, nil
	case CmpGt:
		return c > 0, nil
	case CmpGe:
		return c >= 0, nil
	}
	return false, fmt.Errorf("%w: unknown operator %q", ErrInvalid, op)
}
