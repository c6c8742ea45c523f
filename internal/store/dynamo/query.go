package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tenger/internal/store"
)

const defaultQueryLimit = 100

// Query reads one partition of the table or of an index. It asks DynamoDB
// for one item more than the page size: when that extra item exists the
// cursor points after the last returned item, and when it does not the
// cursor is empty, so a caller never has to fetch an empty last page.
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := s.check(); err != nil {
		return store.Page{}, err
	}
	pkAttr, skAttr, ok := indexKeys(q.Index)
	if !ok {
		return store.Page{}, fmt.Errorf("%w: unknown index %q", store.ErrInvalid, q.Index)
	}
	if q.PK == "" {
		return store.Page{}, fmt.Errorf("%w: query needs a partition key", store.ErrInvalid)
	}
	limit := q.Limit
	if limit < 0 {
		return store.Page{}, fmt.Errorf("%w: negative limit", store.ErrInvalid)
	}
	if limit == 0 {
		limit = defaultQueryLimit
	}
	start, err := decodeCursor(q.Cursor)
	if err != nil {
		return store.Page{}, err
	}

	b := newExprBuilder()
	kc := b.name(pkAttr) + " = " + b.value(q.PK)
	skExpr, empty, err := skCondition(b, skAttr, q.SK)
	if err != nil {
		return store.Page{}, err
	}
	if empty {
		return store.Page{}, nil
	}
	if skExpr != "" {
		kc += " AND " + skExpr
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String(kc),
		ExpressionAttributeNames:  b.attrNames(),
		ExpressionAttributeValues: b.attrValues(),
		ScanIndexForward:          aws.Bool(!q.Desc),
		Limit:                     aws.Int32(int32(min(limit+1, 1<<30))),
		ExclusiveStartKey:         start,
	}
	if q.Index != store.IndexMain {
		in.IndexName = aws.String(q.Index)
	} else {
		// Global secondary indexes only offer eventually consistent reads.
		in.ConsistentRead = aws.Bool(true)
	}
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return store.Page{}, mapErr("query", err)
	}

	var page store.Page
	raw := out.Items
	lastKey := out.LastEvaluatedKey
	if len(raw) > limit {
		raw = raw[:limit]
		lastKey = pageKey(raw[len(raw)-1], pkAttr, skAttr)
	}
	page.Items = make([]store.Item, 0, len(raw))
	for _, r := range raw {
		it, err := UnmarshalItem(r)
		if err != nil {
			return store.Page{}, err
		}
		page.Items = append(page.Items, it)
	}
	if len(lastKey) > 0 {
		page.Cursor, err = encodeCursor(lastKey)
		if err != nil {
			return store.Page{}, err
		}
	}
	return page, nil
}

// skCondition renders the sort-key restriction. empty reports a restriction
// no key can meet, answered without a request (DynamoDB rejects empty key
// values and BETWEEN with reversed bounds instead of returning nothing).
func skCondition(b *exprBuilder, skAttr string, c store.SKCond) (expr string, empty bool, err error) {
	// The name placeholder is made only when used: DynamoDB rejects unused ones.
	n := func() string { return b.name(skAttr) }
	switch c.Kind {
	case store.SKAll:
		return "", false, nil
	case store.SKEq:
		if c.A == "" {
			return "", true, nil
		}
		return n() + " = " + b.value(c.A), false, nil
	case store.SKPrefix:
		if c.A == "" {
			return "", false, nil
		}
		return "begins_with(" + n() + ", " + b.value(c.A) + ")", false, nil
	case store.SKBetween:
		if c.A > c.B {
			return "", true, nil
		}
		if c.A == "" {
			if c.B == "" {
				return "", true, nil
			}
			return n() + " <= " + b.value(c.B), false, nil
		}
		return n() + " BETWEEN " + b.value(c.A) + " AND " + b.value(c.B), false, nil
	case store.SKLt, store.SKLe:
		if c.A == "" {
			return "", true, nil // no non-empty key is below (or equal to) ""
		}
		op := " < "
		if c.Kind == store.SKLe {
			op = " <= "
		}
		return n() + op + b.value(c.A), false, nil
	case store.SKGt, store.SKGe:
		if c.A == "" {
			return "", false, nil // every non-empty key is above ""
		}
		op := " > "
		if c.Kind == store.SKGe {
			op = " >= "
		}
		return n() + op + b.value(c.A), false, nil
	}
	return "", false, fmt.Errorf("%w: unknown sort-key condition %d", store.ErrInvalid, c.Kind)
}

// pageKey builds the exclusive start key after item: the table key plus, for
// an index, the index key.
func pageKey(item map[string]types.AttributeValue, pkAttr, skAttr string) map[string]types.AttributeValue {
	k := map[string]types.AttributeValue{}
	for _, a := range []string{HashKey, RangeKey, pkAttr, skAttr} {
		if v, ok := item[a]; ok {
			k[a] = v
		}
	}
	return k
}

// Cursors are base64url(JSON(attribute → string)): every key attribute of
// the table and its indexes is a string.
func encodeCursor(key map[string]types.AttributeValue) (string, error) {
	m := make(map[string]string, len(key))
	for k, v := range key {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("dynamo: key attribute %q is %T, not a string", k, v)
		}
		m[k] = s.Value
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

func decodeCursor(c string) (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, fmt.Errorf("%w: bad cursor", store.ErrInvalid)
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil || len(m) == 0 {
		return nil, fmt.Errorf("%w: bad cursor", store.ErrInvalid)
	}
	key := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		key[k] = &types.AttributeValueMemberS{Value: v}
	}
	return key, nil
}
