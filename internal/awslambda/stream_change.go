package awslambda

import (
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// ChangeFromStreamRecord converts one DynamoDB stream record (view type
// NEW_AND_OLD_IMAGES) into the store port's Change, so the same change-feed
// consumers run on the embedded feed locally and on DynamoDB Streams in AWS.
// Numbers become decimal.Decimal (never float64), sets become lists.
func ChangeFromStreamRecord(rec events.DynamoDBEventRecord) (store.Change, error) {
	ch := store.Change{
		ID:   rec.Change.SequenceNumber,
		Kind: store.ChangeKind(rec.EventName),
		At:   rec.Change.ApproximateCreationDateTime.UnixMilli(),
	}
	switch ch.Kind {
	case store.ChangeInsert, store.ChangeModify, store.ChangeRemove:
	default:
		return store.Change{}, fmt.Errorf("awslambda: unknown stream event name %q", rec.EventName)
	}
	var err error
	if ch.Old, err = ItemFromImage(rec.Change.OldImage); err != nil {
		return store.Change{}, fmt.Errorf("awslambda: old image: %w", err)
	}
	if ch.New, err = ItemFromImage(rec.Change.NewImage); err != nil {
		return store.Change{}, fmt.Errorf("awslambda: new image: %w", err)
	}
	keys, err := ItemFromImage(rec.Change.Keys)
	if err != nil {
		return store.Change{}, fmt.Errorf("awslambda: keys: %w", err)
	}
	if keys == nil {
		// Keys are always present in real records; fall back to the images
		// for hand-written events.
		if keys = ch.New; keys == nil {
			keys = ch.Old
		}
	}
	ch.Key = keys.Key()
	if ch.Key.PK == "" {
		return store.Change{}, fmt.Errorf("awslambda: stream record %s has no %q key", rec.EventID, store.AttrPK)
	}
	return ch, nil
}

// ItemFromImage converts a stream image to a store item; a nil image (e.g. the
// old image of an insert) gives a nil item.
func ItemFromImage(img map[string]events.DynamoDBAttributeValue) (store.Item, error) {
	if img == nil {
		return nil, nil
	}
	it := make(store.Item, len(img))
	for k, av := range img {
		v, err := valueFromAttr(av)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		it[k] = v
	}
	return it, nil
}

func valueFromAttr(av events.DynamoDBAttributeValue) (any, error) {
	switch av.DataType() {
	case events.DataTypeString:
		return av.String(), nil
	case events.DataTypeNumber:
		return decimal.NewFromString(av.Number())
	case events.DataTypeBoolean:
		return av.Boolean(), nil
	case events.DataTypeBinary:
		return av.Binary(), nil
	case events.DataTypeNull:
		return nil, nil
	case events.DataTypeList:
		l := av.List()
		out := make([]any, len(l))
		for i, e := range l {
			v, err := valueFromAttr(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case events.DataTypeMap:
		m := av.Map()
		out := make(map[string]any, len(m))
		for k, e := range m {
			v, err := valueFromAttr(e)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case events.DataTypeStringSet:
		ss := av.StringSet()
		out := make([]any, len(ss))
		for i, s := range ss {
			out[i] = s
		}
		return out, nil
	case events.DataTypeNumberSet:
		ns := av.NumberSet()
		out := make([]any, len(ns))
		for i, n := range ns {
			d, err := decimal.NewFromString(n)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case events.DataTypeBinarySet:
		bs := av.BinarySet()
		out := make([]any, len(bs))
		for i, b := range bs {
			out[i] = b
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported attribute type %v", av.DataType())
}
