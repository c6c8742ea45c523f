package dynamo

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// MarshalItem converts a store item into DynamoDB attribute values. Numbers
// travel as their exact decimal strings, so nothing passes through float64.
func MarshalItem(it store.Item) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		av, err := MarshalValue(v)
		if err != nil {
			return nil, fmt.Errorf("%w: attribute %q: %v", store.ErrInvalid, k, err)
		}
		out[k] = av
	}
	return out, nil
}

// MarshalValue converts one store value (after store.NormalizeValue, though
// integers are accepted too) into an attribute value.
func MarshalValue(v any) (types.AttributeValue, error) {
	switch x := v.(type) {
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case string:
		return &types.AttributeValueMemberS{Value: x}, nil
	case bool:
		return &types.AttributeValueMemberBOOL{Value: x}, nil
	case decimal.Decimal:
		return &types.AttributeValueMemberN{Value: x.String()}, nil
	case int, int32, int64, uint64:
		n, err := store.NormalizeValue(x)
		if err != nil {
			return nil, err
		}
		return MarshalValue(n)
	case []byte:
		// DynamoDB sends nil and empty binaries alike; keep it non-nil so the
		// member serialises as an empty binary rather than being dropped.
		if x == nil {
			x = []byte{}
		}
		return &types.AttributeValueMemberB{Value: append([]byte(nil), x...)}, nil
	case []string:
		l := make([]types.AttributeValue, len(x))
		for i, s := range x {
			l[i] = &types.AttributeValueMemberS{Value: s}
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case []any:
		l := make([]types.AttributeValue, len(x))
		for i, e := range x {
			av, err := MarshalValue(e)
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case map[string]any:
		m := make(map[string]types.AttributeValue, len(x))
		for k, e := range x {
			av, err := MarshalValue(e)
			if err != nil {
				return nil, err
			}
			m[k] = av
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case store.Item:
		return MarshalValue(map[string]any(x))
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// UnmarshalItem converts DynamoDB attribute values into a store item. A nil
// or empty map gives a nil item.
func UnmarshalItem(m map[string]types.AttributeValue) (store.Item, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(store.Item, len(m))
	for k, av := range m {
		v, err := UnmarshalValue(av)
		if err != nil {
			return nil, fmt.Errorf("dynamo: attribute %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

// UnmarshalValue converts one attribute value into a store value. Sets, which
// Tenger never writes, read back as lists.
func UnmarshalValue(av types.AttributeValue) (any, error) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value, nil
	case *types.AttributeValueMemberN:
		return parseNumber(x.Value)
	case *types.AttributeValueMemberBOOL:
		return x.Value, nil
	case *types.AttributeValueMemberB:
		return nonNilBytes(x.Value), nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(x.Value))
		for i, e := range x.Value {
			v, err := UnmarshalValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *types.AttributeValueMemberM:
		out := make(map[string]any, len(x.Value))
		for k, e := range x.Value {
			v, err := UnmarshalValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case *types.AttributeValueMemberSS:
		out := make([]any, len(x.Value))
		for i, s := range x.Value {
			out[i] = s
		}
		return out, nil
	case *types.AttributeValueMemberNS:
		out := make([]any, len(x.Value))
		for i, s := range x.Value {
			d, err := parseNumber(s)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		out := make([]any, len(x.Value))
		for i, b := range x.Value {
			out[i] = nonNilBytes(b)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported attribute value %T", av)
}

// unmarshalStreamItem is UnmarshalItem for the streams API, whose attribute
// value types are distinct Go types with the same shape.
func unmarshalStreamItem(m map[string]streamtypes.AttributeValue) (store.Item, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(store.Item, len(m))
	for k, av := range m {
		v, err := unmarshalStreamValue(av)
		if err != nil {
			return nil, fmt.Errorf("dynamo: stream attribute %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func unmarshalStreamValue(av streamtypes.AttributeValue) (any, error) {
	switch x := av.(type) {
	case *streamtypes.AttributeValueMemberS:
		return x.Value, nil
	case *streamtypes.AttributeValueMemberN:
		return parseNumber(x.Value)
	case *streamtypes.AttributeValueMemberBOOL:
		return x.Value, nil
	case *streamtypes.AttributeValueMemberB:
		return nonNilBytes(x.Value), nil
	case *streamtypes.AttributeValueMemberNULL:
		return nil, nil
	case *streamtypes.AttributeValueMemberL:
		out := make([]any, len(x.Value))
		for i, e := range x.Value {
			v, err := unmarshalStreamValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *streamtypes.AttributeValueMemberM:
		out := make(map[string]any, len(x.Value))
		for k, e := range x.Value {
			v, err := unmarshalStreamValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case *streamtypes.AttributeValueMemberSS:
		out := make([]any, len(x.Value))
		for i, s := range x.Value {
			out[i] = s
		}
		return out, nil
	case *streamtypes.AttributeValueMemberNS:
		out := make([]any, len(x.Value))
		for i, s := range x.Value {
			d, err := parseNumber(s)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case *streamtypes.AttributeValueMemberBS:
		out := make([]any, len(x.Value))
		for i, b := range x.Value {
			out[i] = nonNilBytes(b)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported stream attribute value %T", av)
}

func parseNumber(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("bad number %q: %v", s, err)
	}
	return d, nil
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
