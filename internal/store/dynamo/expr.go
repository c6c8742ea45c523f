package dynamo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// exprBuilder collects the placeholders of one request's expressions. Every
// attribute name goes through a #placeholder (so reserved words such as
// "ttl" or "status" need no special care) and every value through a
// :placeholder.
type exprBuilder struct {
	names     map[string]string // placeholder → attribute name
	nameByKey map[string]string // attribute name → placeholder
	values    map[string]types.AttributeValue
	err       error
}

func newExprBuilder() *exprBuilder {
	return &exprBuilder{names: map[string]string{}, nameByKey: map[string]string{}, values: map[string]types.AttributeValue{}}
}

func (b *exprBuilder) name(attr string) string {
	if p, ok := b.nameByKey[attr]; ok {
		return p
	}
	p := "#n" + strconv.Itoa(len(b.names))
	b.names[p] = attr
	b.nameByKey[attr] = p
	return p
}

func (b *exprBuilder) value(v any) string {
	av, err := MarshalValue(v)
	if err != nil {
		b.fail(fmt.Errorf("%w: %v", store.ErrInvalid, err))
		av = &types.AttributeValueMemberNULL{Value: true}
	}
	p := ":v" + strconv.Itoa(len(b.values))
	b.values[p] = av
	return p
}

func (b *exprBuilder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// attrNames and attrValues return nil for empty maps: DynamoDB rejects empty
// ExpressionAttributeNames / ExpressionAttributeValues.
func (b *exprBuilder) attrNames() map[string]string {
	if len(b.names) == 0 {
		return nil
	}
	return b.names
}

func (b *exprBuilder) attrValues() map[string]types.AttributeValue {
	if len(b.values) == 0 {
		return nil
	}
	return b.values
}

// cond renders a store condition; nil renders as "" (no condition).
func (b *exprBuilder) cond(c store.Cond) (string, error) {
	s, err := store.Render(c, store.CondVisitor{
		Exists:    func(attr string) string { return "attribute_exists(" + b.name(attr) + ")" },
		NotExists: func(attr string) string { return "attribute_not_exists(" + b.name(attr) + ")" },
		Compare:   b.compare,
		BeginsWith: func(attr, prefix string) string {
			return "begins_with(" + b.name(attr) + ", " + b.value(prefix) + ")"
		},
	})
	if err != nil {
		return "", err
	}
	if b.err != nil {
		return "", b.err
	}
	return s, nil
}

// compare renders "attr op value". The port says a comparison with a missing
// attribute or a value of another type is false for every operator; DynamoDB
// agrees except for <>, which it finds true in both cases, so <> is guarded
// by attribute_type.
func (b *exprBuilder) compare(attr string, op store.CmpOp, value any) string {
	n := b.name(attr)
	switch op {
	case store.CmpEq, store.CmpNe:
	case store.CmpLt, store.CmpLe, store.CmpGt, store.CmpGe:
		switch value.(type) {
		case string, decimal.Decimal:
		default:
			b.fail(fmt.Errorf("%w: operator %s on %T", store.ErrInvalid, op, value))
		}
	default:
		b.fail(fmt.Errorf("%w: unknown operator %q", store.ErrInvalid, op))
		return "attribute_exists(" + n + ")"
	}
	v := b.value(value)
	if op == store.CmpNe {
		t := b.value(typeCode(value))
		return "attribute_type(" + n + ", " + t + ") AND " + n + " <> " + v
	}
	return n + " " + string(op) + " " + v
}

// typeCode is DynamoDB's type descriptor of a normalized store value.
func typeCode(v any) string {
	switch v.(type) {
	case string:
		return "S"
	case decimal.Decimal:
		return "N"
	case bool:
		return "BOOL"
	case []byte:
		return "B"
	case nil:
		return "NULL"
	case []any:
		return "L"
	case map[string]any:
		return "M"
	}
	return "NULL"
}

// update renders an update as SET / ADD / REMOVE clauses. It also enforces
// what ValidateItem enforces for whole items, since DynamoDB would accept a
// string ttl or reject an index key of the wrong type with a less useful
// message.
func (b *exprBuilder) update(u *store.Update) (string, error) {
	if err := u.Validate(); err != nil {
		return "", err
	}
	var set, add, remove []string
	for _, a := range u.Actions {
		n := b.name(a.Attr)
		switch a.Kind {
		case store.ActSet, store.ActSetIfMissing:
			v, _ := store.NormalizeValue(a.Value) // Validate checked it
			if err := checkReserved(a.Attr, v); err != nil {
				return "", err
			}
			if a.Kind == store.ActSet {
				set = append(set, n+" = "+b.value(v))
			} else {
				set = append(set, n+" = if_not_exists("+n+", "+b.value(v)+")")
			}
		case store.ActAdd:
			if isIndexAttr(a.Attr) {
				return "", fmt.Errorf("%w: cannot add to index attribute %q", store.ErrInvalid, a.Attr)
			}
			add = append(add, n+" "+b.value(a.Value))
		case store.ActRemove:
			remove = append(remove, n)
		}
	}
	var parts []string
	if len(set) > 0 {
		parts = append(parts, "SET "+strings.Join(set, ", "))
	}
	if len(add) > 0 {
		parts = append(parts, "ADD "+strings.Join(add, ", "))
	}
	if len(remove) > 0 {
		parts = append(parts, "REMOVE "+strings.Join(remove, ", "))
	}
	if b.err != nil {
		return "", b.err
	}
	return strings.Join(parts, " "), nil
}

func isIndexAttr(attr string) bool {
	switch attr {
	case store.AttrGSI1PK, store.AttrGSI1SK, store.AttrGSI2PK, store.AttrGSI2SK:
		return true
	}
	return false
}

// checkReserved applies store.ValidateItem's rules to one set value.
func checkReserved(attr string, v any) error {
	if isIndexAttr(attr) {
		if s, ok := v.(string); !ok || s == "" {
			return fmt.Errorf("%w: index attribute %q must be a non-empty string", store.ErrInvalid, attr)
		}
	}
	if attr == store.AttrTTL {
		if _, ok := v.(decimal.Decimal); !ok {
			return fmt.Errorf("%w: attribute %q must be a number", store.ErrInvalid, attr)
		}
	}
	return nil
}
