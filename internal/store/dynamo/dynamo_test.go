package dynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
	"tenger/internal/store/storetest"
	"tenger/localstack/ddblocal"
)

// --- unit tests (no AWS) ---------------------------------------------------

func TestMarshalRoundTrip(t *testing.T) {
	in := store.Item{
		"pk":     "USER#1",
		"sk":     "BAL#USDT",
		"amount": decimal.RequireFromString("12345678901234567890.123456789012345678"),
		"neg":    decimal.RequireFromString("-0.000000000000000001"),
		"int":    int64(42),
		"ok":     true,
		"no":     false,
		"blob":   []byte{0, 1, 2, 255},
		"none":   nil,
		"empty":  "",
		"list":   []any{"a", decimal.NewFromInt(1), []any{true}, map[string]any{"x": "y"}},
		"map":    map[string]any{"n": decimal.RequireFromString("0.1"), "s": "t", "inner": map[string]any{}},
		"strs":   []string{"p", "q"},
	}
	av, err := MarshalItem(in)
	if err != nil {
		t.Fatal(err)
	}
	// Numbers travel as exact strings.
	if n := av["amount"].(*types.AttributeValueMemberN).Value; n != "12345678901234567890.123456789012345678" {
		t.Fatalf("amount marshalled as %q", n)
	}
	if n := av["int"].(*types.AttributeValueMemberN).Value; n != "42" {
		t.Fatalf("int marshalled as %q", n)
	}
	if _, ok := av["none"].(*types.AttributeValueMemberNULL); !ok {
		t.Fatalf("nil marshalled as %T", av["none"])
	}
	out, err := UnmarshalItem(av)
	if err != nil {
		t.Fatal(err)
	}
	if !storetest.EqualItems(out, in) {
		t.Fatalf("round trip:\n got  %s\n want %s", storetest.Format(out), storetest.Format(in))
	}
	if _, ok := out["int"].(decimal.Decimal); !ok {
		t.Fatalf("int read back as %T, want decimal.Decimal", out["int"])
	}
	if got := out.Dec("amount").String(); got != "12345678901234567890.123456789012345678" {
		t.Fatalf("amount read back as %s", got)
	}
	if !bytes.Equal(out.Bytes("blob"), []byte{0, 1, 2, 255}) {
		t.Fatalf("blob read back as %v", out["blob"])
	}
}

func TestMarshalRejectsUnsupported(t *testing.T) {
	_, err := MarshalItem(store.Item{"pk": "a", "sk": "b", "f": 1.5})
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("float: want ErrInvalid, got %v", err)
	}
}

func TestUnmarshalSetsAndStreams(t *testing.T) {
	v, err := UnmarshalValue(&types.AttributeValueMemberNS{Value: []string{"1.5", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	l := v.([]any)
	if len(l) != 2 || !l[0].(decimal.Decimal).Equal(decimal.RequireFromString("1.5")) {
		t.Fatalf("NS read back as %v", v)
	}
	if _, err := UnmarshalValue(&types.AttributeValueMemberN{Value: "nope"}); err == nil {
		t.Fatal("bad number accepted")
	}
	st, err := unmarshalStreamItem(map[string]streamtypes.AttributeValue{
		"pk":  &streamtypes.AttributeValueMemberS{Value: "p"},
		"n":   &streamtypes.AttributeValueMemberN{Value: "0.30"},
		"m":   &streamtypes.AttributeValueMemberM{Value: map[string]streamtypes.AttributeValue{"b": &streamtypes.AttributeValueMemberBOOL{Value: true}}},
		"l":   &streamtypes.AttributeValueMemberL{Value: []streamtypes.AttributeValue{&streamtypes.AttributeValueMemberNULL{Value: true}}},
		"bin": &streamtypes.AttributeValueMemberB{Value: []byte("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := store.Item{"pk": "p", "n": decimal.RequireFromString("0.3"), "m": map[string]any{"b": true}, "l": []any{nil}, "bin": []byte("x")}
	if !storetest.EqualItems(st, want) {
		t.Fatalf("stream item: got %s want %s", storetest.Format(st), storetest.Format(want))
	}
}

func TestConditionRendering(t *testing.T) {
	b := newExprBuilder()
	got, err := b.cond(store.And(store.ItemExists(), store.Compare("status", store.CmpNe, "done"), store.Ge("bal", 5)))
	if err != nil {
		t.Fatal(err)
	}
	want := "(attribute_exists(#n0)) AND (attribute_type(#n1, :v1) AND #n1 <> :v0) AND (#n2 >= :v2)"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if b.names["#n1"] != "status" || b.values[":v1"].(*types.AttributeValueMemberS).Value != "S" {
		t.Fatalf("placeholders: %v %v", b.names, b.values)
	}
	if _, err := newExprBuilder().cond(store.Compare("flag", store.CmpLt, true)); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("< on a bool: want ErrInvalid, got %v", err)
	}
	if _, err := newExprBuilder().cond(store.And()); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("empty AND: want ErrInvalid, got %v", err)
	}
}

func TestUpdateRendering(t *testing.T) {
	b := newExprBuilder()
	got, err := b.update(store.NewUpdate().Set("a", "x").SetIfMissing("c", 1).AddInt("bal", -3).Remove("gsi1pk"))
	if err != nil {
		t.Fatal(err)
	}
	want := "SET #n0 = :v0, #n1 = if_not_exists(#n1, :v1) ADD #n2 :v2 REMOVE #n3"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for _, u := range []*store.Update{
		store.NewUpdate().Set("gsi1pk", 5),
		store.NewUpdate().Set("ttl", "soon"),
		store.NewUpdate().AddInt("gsi2sk", 1),
		store.NewUpdate().Set("pk", "x"),
		store.NewUpdate(),
	} {
		if _, err := newExprBuilder().update(u); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("update %+v: want ErrInvalid, got %v", u.Actions, err)
		}
	}
}

func TestCursorAndCheckpointCoding(t *testing.T) {
	key := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "P"}, "sk": &types.AttributeValueMemberS{Value: "S#1"},
		"gsi1pk": &types.AttributeValueMemberS{Value: "G"}, "gsi1sk": &types.AttributeValueMemberS{Value: "x"},
	}
	c, err := encodeCursor(key)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeCursor(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 4 || back["sk"].(*types.AttributeValueMemberS).Value != "S#1" {
		t.Fatalf("cursor round trip: %v", back)
	}
	if _, err := decodeCursor("!!"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("bad cursor: %v", err)
	}
	cp := &checkpoint{Seq: map[string]string{"shard-a": "100", "shard-b": "7"}, Done: []string{"shard-0"}}
	cp2, err := decodeCheckpoint(cp.encode())
	if err != nil || cp2.Seq["shard-a"] != "100" || !cp2.done("shard-0") || cp2.done("shard-a") {
		t.Fatalf("checkpoint round trip: %+v %v", cp2, err)
	}
	cp2.prune(map[string]bool{"shard-b": true})
	if len(cp2.Seq) != 1 || cp2.Seq["shard-b"] != "7" || len(cp2.Done) != 0 {
		t.Fatalf("prune: %+v", cp2)
	}
	if len(padSeq("1")) != idWidth {
		t.Fatalf("padSeq width %d", len(padSeq("1")))
	}
	if !(padSeq("45") < padSeq("123")) {
		t.Fatalf("padded sequence numbers must order numerically")
	}
}

func TestOrderShardsParentsFirst(t *testing.T) {
	sh := func(id, parent string) streamtypes.Shard {
		s := streamtypes.Shard{ShardId: aws.String(id)}
		if parent != "" {
			s.ParentShardId = aws.String(parent)
		}
		return s
	}
	got := orderShards([]streamtypes.Shard{sh("c2", "b"), sh("b", "a"), sh("x", "trimmed"), sh("a", ""), sh("c1", "b")})
	var ids []string
	for _, s := range got {
		ids = append(ids, aws.ToString(s.ShardId))
	}
	want := []string{"a", "b", "c1", "c2", "x"}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
}

func TestTransactValidationWithoutAWS(t *testing.T) {
	// A nil client proves no request is made: any call would panic.
	s := New(nil, nil, "unused")
	ctx := context.Background()
	many := make([]store.Op, store.MaxTransactItems+1)
	for i := range many {
		many[i] = store.CheckOp(store.Key{PK: "p", SK: fmt.Sprint(i)}, nil)
	}
	cases := map[string][]store.Op{
		"empty":    nil,
		"too many": many,
		"dup": {
			store.PutOp(store.Item{"pk": "p", "sk": "1"}, nil),
			store.UpdateOp(store.Key{PK: "p", SK: "1"}, store.NewUpdate().Set("a", "b"), nil),
		},
		"bad key":  {store.DeleteOp(store.Key{PK: "p"}, nil)},
		"bad kind": {{Kind: 99, Key: store.Key{PK: "p", SK: "s"}}},
	}
	for name, ops := range cases {
		if err := s.Transact(ctx, ops); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: want ErrInvalid, got %v", name, err)
		}
	}
}

func TestMapTxErr(t *testing.T) {
	reasons := func(codes ...string) error {
		rs := make([]types.CancellationReason, len(codes))
		for i, c := range codes {
			rs[i].Code = aws.String(c)
		}
		return &types.TransactionCanceledException{CancellationReasons: rs}
	}
	var tce *store.TxCanceledError
	if err := mapTxErr(reasons("None", "TransactionConflict", "ConditionalCheckFailed"), 3); !errors.As(err, &tce) || tce.Index != 2 {
		t.Fatalf("want TxCanceledError{2}, got %v", err)
	}
	if err := mapTxErr(reasons("None", "TransactionConflict"), 2); !errors.Is(err, errConflict) {
		t.Fatalf("want conflict, got %v", err)
	}
	msg := &types.TransactionCanceledException{Message: aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]")}
	if err := mapTxErr(msg, 2); !errors.As(err, &tce) || tce.Index != 1 {
		t.Fatalf("message fallback: got %v", err)
	}
}

// --- DynamoDB Local -----------------------------------------------------------

var tableSeq atomic.Int64

// newTable creates a uniquely named table, deleted when the test ends.
func newTable(t *testing.T) (*dynamodb.Client, *Store) {
	t.Helper()
	ep := ddblocal.Endpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := ddblocal.NewClient(ctx, ep)
	name := fmt.Sprintf("tenger-test-%d-%d-%d", time.Now().UnixNano(), rand.IntN(1e6), tableSeq.Add(1))
	if err := CreateTable(ctx, client, name); err != nil {
		t.Fatal(err)
	}
	s := New(client, ddblocal.NewStreamsClient(ctx, ep), name)
	t.Cleanup(func() {
		_ = s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := DeleteTable(ctx, client, name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	return client, s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		_, s := newTable(t)
		return s
	})
}

func TestCreateTableSchema(t *testing.T) {
	client, s := newTable(t)
	ctx := context.Background()
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.Table())})
	if err != nil {
		t.Fatal(err)
	}
	tbl := out.Table
	if tbl.StreamSpecification == nil || !aws.ToBool(tbl.StreamSpecification.StreamEnabled) ||
		tbl.StreamSpecification.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("stream spec: %+v", tbl.StreamSpecification)
	}
	if aws.ToString(tbl.LatestStreamArn) == "" {
		t.Fatal("no stream ARN")
	}
	keys := map[string]types.KeyType{}
	for _, k := range tbl.KeySchema {
		keys[aws.ToString(k.AttributeName)] = k.KeyType
	}
	if keys[HashKey] != types.KeyTypeHash || keys[RangeKey] != types.KeyTypeRange || len(keys) != 2 {
		t.Fatalf("key schema: %v", keys)
	}
	if tbl.BillingModeSummary == nil || tbl.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("billing mode: %+v", tbl.BillingModeSummary)
	}
	gsis := map[string]types.GlobalSecondaryIndexDescription{}
	for _, g := range tbl.GlobalSecondaryIndexes {
		gsis[aws.ToString(g.IndexName)] = g
	}
	if len(gsis) != len(Indexes) {
		t.Fatalf("indexes: %d, want %d", len(gsis), len(Indexes))
	}
	for _, ix := range Indexes {
		g, ok := gsis[ix.Name]
		if !ok {
			t.Fatalf("index %s missing", ix.Name)
		}
		if g.Projection == nil || g.Projection.ProjectionType != types.ProjectionTypeAll {
			t.Fatalf("index %s projection %+v", ix.Name, g.Projection)
		}
		if len(g.KeySchema) != 2 || aws.ToString(g.KeySchema[0].AttributeName) != ix.PartitionKey ||
			g.KeySchema[0].KeyType != types.KeyTypeHash || aws.ToString(g.KeySchema[1].AttributeName) != ix.SortKey {
			t.Fatalf("index %s key schema %+v", ix.Name, g.KeySchema)
		}
	}
	ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(s.Table())})
	if err != nil {
		t.Fatal(err)
	}
	d := ttl.TimeToLiveDescription
	if d == nil || aws.ToString(d.AttributeName) != TTLAttribute ||
		(d.TimeToLiveStatus != types.TimeToLiveStatusEnabled && d.TimeToLiveStatus != types.TimeToLiveStatusEnabling) {
		t.Fatalf("ttl: %+v", d)
	}
}

// TestLocalSemantics covers the places where the adapter adds to what
// DynamoDB does by itself, against DynamoDB Local.
func TestLocalSemantics(t *testing.T) {
	_, s := newTable(t)
	ctx := context.Background()
	k := store.Key{PK: "acct#1", SK: "main"}
	if err := s.Put(ctx, store.Item{"pk": k.PK, "sk": k.SK, "balance": 100, "status": "open", "ttl": 4102444800}, nil); err != nil {
		t.Fatal(err)
	}

	// <> against a value of another type, or a missing attribute, is false
	// under the port; bare DynamoDB would find both true.
	for _, c := range []store.Cond{store.Compare("balance", store.CmpNe, "100"), store.Compare("nope", store.CmpNe, 1)} {
		if _, err := s.Update(ctx, k, store.NewUpdate().Set("x", 1), c); !errors.Is(err, store.ErrConditionFailed) {
			t.Fatalf("cond %#v: want ErrConditionFailed, got %v", c, err)
		}
	}
	it, err := s.Update(ctx, k, store.NewUpdate().Set("x", 1), store.And(store.Compare("balance", store.CmpNe, 99), store.Eq("status", "open")))
	if err != nil || it.Int("x") != 1 || it.Int("ttl") != 4102444800 {
		t.Fatalf("<> same type: %v %v", it, err)
	}

	// Adding to a string is a type error, reported as ErrInvalid.
	if _, err := s.Update(ctx, k, store.NewUpdate().AddInt("status", 1), nil); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("add to string: want ErrInvalid, got %v", err)
	}

	// A check without a condition always holds (DynamoDB needs an expression).
	if err := s.Transact(ctx, []store.Op{
		store.CheckOp(store.Key{PK: "nobody", SK: "x"}, nil),
		store.UpdateOp(k, store.NewUpdate().AddInt("balance", -1), store.Ge("balance", 1)),
	}); err != nil {
		t.Fatalf("transaction with nil check: %v", err)
	}
	if got := mustGetDec(t, s, k, "balance"); got != "99" {
		t.Fatalf("balance %s, want 99", got)
	}

	// A page that ends exactly at the last item has no cursor; a full page
	// followed by more items has one that continues after it.
	for i := 0; i < 4; i++ {
		if err := s.Put(ctx, store.Item{"pk": "p", "sk": fmt.Sprintf("s%d", i), "gsi1pk": "g", "gsi1sk": fmt.Sprintf("%d", 9-i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.Query(ctx, store.Query{PK: "p", Limit: 4})
	if err != nil || len(page.Items) != 4 || page.Cursor != "" {
		t.Fatalf("exact page: %d items, cursor %q, err %v", len(page.Items), page.Cursor, err)
	}
	page, err = s.Query(ctx, store.Query{Index: IndexGSI1, PK: "g", Limit: 3})
	if err != nil || len(page.Items) != 3 || page.Cursor == "" || page.Items[0].Str("gsi1sk") != "6" {
		t.Fatalf("gsi page 1: %v cursor %q err %v", page.Items, page.Cursor, err)
	}
	page, err = s.Query(ctx, store.Query{Index: IndexGSI1, PK: "g", Limit: 3, Cursor: page.Cursor})
	if err != nil || len(page.Items) != 1 || page.Cursor != "" || page.Items[0].Str("gsi1sk") != "9" {
		t.Fatalf("gsi page 2: %v cursor %q err %v", page.Items, page.Cursor, err)
	}
	// Sort-key bounds DynamoDB itself would reject.
	for _, c := range []store.SKCond{store.SKRange("s3", "s1"), {Kind: store.SKEq}, {Kind: store.SKLt}} {
		page, err := s.Query(ctx, store.Query{PK: "p", SK: c})
		if err != nil || len(page.Items) != 0 {
			t.Fatalf("sk %+v: %d items, err %v", c, len(page.Items), err)
		}
	}
	page, err = s.Query(ctx, store.Query{PK: "p", SK: store.SKCond{Kind: store.SKGe}, Desc: true})
	if err != nil || len(page.Items) != 4 || page.Items[0].Str("sk") != "s3" {
		t.Fatalf("sk >= \"\": %v err %v", page.Items, err)
	}
}

func mustGetDec(t *testing.T, s *Store, k store.Key, attr string) string {
	t.Helper()
	it, err := s.Get(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	return it.Dec(attr).String()
}
