package fntest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"tenger/internal/awslambda"
	"tenger/internal/store"
	"tenger/internal/store/keyspace"
)

func key(pk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: "S"}}
}

// violations are the guard's findings, one line each.
func (g *keyGuard) violations() []string {
	var out []string
	for _, c := range g.calls {
		if v := violation(c); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// TestKeyGuardChecksEveryKind: reads, writes, index queries, transaction
// items and the operations no grant allows are each checked against the
// caller's key space.
func TestKeyGuardChecksEveryKind(t *testing.T) {
	g := &keyGuard{}
	// Allowed: the trade function reads orders and queries gsi1.
	g.observe("trade", &dynamodb.GetItemInput{Key: key("SORD#1")})
	g.observe("trade", &dynamodb.QueryInput{IndexName: aws.String(store.IndexGSI1),
		KeyConditionExpression:    aws.String("#n0 = :v0 AND begins_with(#n1, :v1)"),
		ExpressionAttributeNames:  map[string]string{"#n0": store.AttrGSI1PK, "#n1": store.AttrGSI1SK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v0": &types.AttributeValueMemberS{Value: "SORDU#7"}, ":v1": &types.AttributeValueMemberS{Value: "1"}}})
	g.observe("wallet", &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{Item: key("WD#w1")}}, {ConditionCheck: &types.ConditionCheck{Key: key("SESSION#s")}}}})
	if v := g.violations(); len(v) != 0 {
		t.Fatalf("allowed calls refused: %v", v)
	}
	if g.calls[1].pk != "SORDU#7" {
		t.Errorf("query partition = %q", g.calls[1].pk)
	}
	for _, c := range []struct {
		grantee string
		params  any
		want    string
	}{
		{"trade", &dynamodb.PutItemInput{Item: key("SORD#1")}, `Writes lack the prefix "SORD#"`},
		{"trade", &dynamodb.GetItemInput{Key: key("WD#1")}, `trade called GetItem on partition key "WD#1", and its key space lacks the prefix "WD#"`},
		{"wallet", &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{Key: key("SESSION#s")}}}}, `TransactWriteItems/Update on partition key "SESSION#s"`},
		{"content", &dynamodb.QueryInput{IndexName: aws.String(store.IndexGSI2)}, "queried index gsi2"},
		{"trade", &dynamodb.ScanInput{}, "called Scan, which no grant"},
		{"trade", &dynamodb.BatchWriteItemInput{}, "called BatchWriteItem, which no grant"},
		{"trade", &dynamodb.DescribeTableInput{}, "does not declare Feed"},
		{"nobody", &dynamodb.GetItemInput{Key: key("USER#1")}, "declares no key space for nobody"},
	} {
		g := &keyGuard{}
		g.observe(c.grantee, c.params)
		if v := g.violations(); len(v) != 1 || !strings.Contains(v[0], c.want) {
			t.Errorf("%s %T: %v, want %q", c.grantee, c.params, v, c.want)
		}
	}
}

// failing is an HTTP client that sends nothing.
type failing struct{}

func (failing) Do(*http.Request) (*http.Response, error) { return nil, errors.New("not sent") }

// TestKeyGuardAttributesCalls: a call made in a function's invocation is
// the function's, one through EngineStore's context the engine's, and
// one made outside both (a test's own setup) is not recorded.
func TestKeyGuardAttributesCalls(t *testing.T) {
	g := &keyGuard{}
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1", Credentials: aws.AnonymousCredentials{},
		HTTPClient: failing{}, RetryMaxAttempts: 1, APIOptions: []func(*middleware.Stack) error{g.middleware}})
	inv, _ := awslambda.NewRuntime("trade", io.Discard).Begin(context.Background(), "c")
	get := func(ctx context.Context, pk string) {
		_, _ = client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key(pk)})
	}
	get(context.Background(), "SETUP#1")
	get(inv, "SORD#1")
	get(asEngine(context.Background()), "POST#1")
	var got []string
	for _, c := range g.calls {
		got = append(got, c.grantee+" "+c.pk)
	}
	if want := "trade SORD#1," + keyspace.EngineTask + " POST#1"; strings.Join(got, ",") != want {
		t.Errorf("recorded %q, want %q", strings.Join(got, ","), want)
	}
}
