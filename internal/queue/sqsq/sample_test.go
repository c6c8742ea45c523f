package sqsq_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue/sqsq"
)

// ordersSample is the recorded shape of what the engine receives from the
// orders FIFO queue: the body of an SQS ReceiveMessage response (JSON
// protocol) to the request the adapter makes.
var ordersSample = filepath.Join("..", "..", "..", "events", "samples", "sqs_orders_receive.json")

var updateSample = flag.Bool("update-sample", false, "rewrite events/samples/sqs_orders_receive.json from the commands in TestOrdersQueueSample")

// sampleMessage is one message of the sample: the command the trade API (or
// the engine's outbox sweep) sent and what SQS adds to it.
type sampleMessage struct {
	id, receipt    string
	group, dedupID string
	receiveCount   int
	sentAt         int64 // Unix ms
	cmd            matching.Command
}

// sampleMessages builds the sample's commands the way internal/spot does:
// a place command from decimal strings on the catalogue's grid (message
// group = symbol, dedup id "place:<order id>"), and a cancel (no dedup id
// of its own: the adapter gives it a random one).
func sampleMessages(t *testing.T) []sampleMessage {
	t.Helper()
	cat := markets.Defaults()
	place := func(symbol string, id, uid uint64, r matching.OrderRequest) matching.Command {
		p, ok := cat.Pair(symbol)
		if !ok {
			t.Fatalf("pair %s is not in the default catalogue", symbol)
		}
		sc := matching.SymbolConfig{Symbol: p.Symbol, PriceTick: p.PriceTick, LotSize: p.LotSize,
			PricePrecision: p.PricePrecision, QtyPrecision: p.VolumePrecision, MinQty: p.MinQty, MinNotional: p.MinNotional}
		bc, err := sc.BookConfig(symbolNum(symbol))
		if err != nil {
			t.Fatal(err)
		}
		r.OrderID, r.UserID = id, uid
		cmd, reason := sc.PlaceCommand(symbolNum(symbol), &bc, r)
		if reason != matching.ReasonNone {
			t.Fatalf("place %s %+v: %v", symbol, r, reason)
		}
		return cmd
	}
	// Order ids are the creation time in ms << 16 | a counter (spot's
	// newOrderID); user ids are the auth service's 8-digit ids.
	const ms = 1767225600123 // 2026-01-01T00:00:00.123Z
	buyID, mktID := uint64(ms)<<16|1, uint64(ms+850)<<16|2
	const alice, bob = 10000042, 10000077
	return []sampleMessage{
		{
			id: "7d3f8a52-1c4e-4b6a-9f0d-2e81c5a7b913", receipt: receipt("7d3f8a52", 1),
			group: "btcusdt", dedupID: "place:" + strconv.FormatUint(buyID, 10), receiveCount: 1, sentAt: ms + 4,
			cmd: place("btcusdt", buyID, alice, matching.OrderRequest{Side: matching.Buy, Type: matching.Limit,
				TIF: matching.GTC, STP: matching.STPCancelTaker, Price: "67250.5", Qty: "0.015"}),
		},
		{
			id: "b1e0c6d4-5a39-4f27-8c1b-6d90f3e2a845", receipt: receipt("b1e0c6d4", 1),
			group: "btcusdt", dedupID: "9c4f1e07b2d84a6f8e3a5c9d1b7f2e60", receiveCount: 1, sentAt: ms + 2310,
			cmd: matching.Command{Kind: matching.CmdCancel, OrderID: buyID, UserID: alice, Symbol: symbolNum("btcusdt")},
		},
		{
			// A redelivery: the engine's previous receive of it was not
			// deleted before its visibility ended.
			id: "e54a2b7c-90d3-4e18-a6f5-3c07d9b1e2a4", receipt: receipt("e54a2b7c", 2),
			group: "ethusdt", dedupID: "place:" + strconv.FormatUint(mktID, 10), receiveCount: 2, sentAt: ms + 857,
			cmd: place("ethusdt", mktID, bob, matching.OrderRequest{Side: matching.Buy, Type: matching.Market,
				TIF: matching.IOC, STP: matching.STPCancelTaker, Quote: "100"}),
		},
	}
}

// receipt makes a receipt handle of SQS's shape (a long base64 string).
func receipt(seed string, n int) string {
	h := md5.Sum([]byte(seed + strconv.Itoa(n)))
	b := bytes.Repeat(h[:], 12)
	return "AQEB" + base64.StdEncoding.EncodeToString(b)[:200]
}

// symbolNum is internal/spot's numeric symbol id (FNV-1a of the symbol,
// never 0), repeated here to check the sample's commands name their group.
func symbolNum(symbol string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(symbol))
	if v := h.Sum32(); v != 0 {
		return v
	}
	return 1
}

type attrValue struct {
	DataType    string `json:"DataType"`
	StringValue string `json:"StringValue"`
}

type wireMessage struct {
	Attributes             map[string]string    `json:"Attributes"`
	Body                   string               `json:"Body"`
	MD5OfBody              string               `json:"MD5OfBody"`
	MD5OfMessageAttributes string               `json:"MD5OfMessageAttributes"`
	MessageAttributes      map[string]attrValue `json:"MessageAttributes"`
	MessageID              string               `json:"MessageId"`
	ReceiptHandle          string               `json:"ReceiptHandle"`
}

type wireReceive struct {
	Messages []wireMessage `json:"Messages"`
}

// wire is the message as SQS returns it for the adapter's send of m.
func (m sampleMessage) wire() wireMessage {
	body := make([]byte, matching.CommandSize)
	matching.EncodeCommand(body, &m.cmd)
	text := base64.StdEncoding.EncodeToString(body)
	attrs := map[string]attrValue{sqsq.BodyEncodingAttr: {DataType: "String", StringValue: "base64"}}
	return wireMessage{
		Attributes: map[string]string{
			"ApproximateReceiveCount": strconv.Itoa(m.receiveCount),
			"MessageDeduplicationId":  m.dedupID,
			"MessageGroupId":          m.group,
			"SentTimestamp":           strconv.FormatInt(m.sentAt, 10),
		},
		Body:                   text,
		MD5OfBody:              md5Hex([]byte(text)),
		MD5OfMessageAttributes: attributesMD5(attrs),
		MessageAttributes:      attrs,
		MessageID:              m.id,
		ReceiptHandle:          m.receipt,
	}
}

func md5Hex(b []byte) string {
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

// attributesMD5 is SQS's digest of message attributes: for each name in
// order, length-prefixed (4 bytes, big-endian) name and data type, the
// transport type (1 = string), and the length-prefixed value.
func attributesMD5(attrs map[string]attrValue) string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	put := func(s string) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(s)))
		b.WriteString(s)
	}
	for _, n := range names {
		put(n)
		put(attrs[n].DataType)
		b.WriteByte(1)
		put(attrs[n].StringValue)
	}
	return md5Hex(b.Bytes())
}

// TestOrdersQueueSample feeds the recorded ReceiveMessage response through
// a real SQS client and the adapter's Receive, and decodes every body with
// matching.DecodeCommand, as the engine does: the sample is exactly what
// the trade API's commands become on the wire, and cannot drift from the
// codec, the adapter or the producers' group and dedup conventions. Run
// with -update-sample to rewrite it after a deliberate change.
func TestOrdersQueueSample(t *testing.T) {
	want := sampleMessages(t)
	if *updateSample {
		var r wireReceive
		for _, m := range want {
			r.Messages = append(r.Messages, m.wire())
		}
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ordersSample, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sample, err := os.ReadFile(ordersSample)
	if err != nil {
		t.Fatal(err)
	}

	// The sample's own digests are SQS's (the client checks MD5OfBody; the
	// attributes' digest is checked here, after checking the digest
	// function on published examples).
	for want, attrs := range map[string]map[string]attrValue{
		"cd28f3b68aeee4b2eac9c66f2f694b58": {"SellerName": {"String", "Example Store"}},
		"235c5c510d26fb653d073faed50ae77c": {"timestamp": {"Number", "1493147359900"}},
	} {
		if got := attributesMD5(attrs); got != want {
			t.Fatalf("attributesMD5(%v) = %s, want %s", attrs, got, want)
		}
	}
	var rec wireReceive
	if err := json.Unmarshal(sample, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Messages) != len(want) {
		t.Fatalf("sample has %d messages, want %d", len(rec.Messages), len(want))
	}
	for i, m := range rec.Messages {
		if got := attributesMD5(m.MessageAttributes); got != m.MD5OfMessageAttributes {
			t.Errorf("message %d: MD5OfMessageAttributes %s, SQS would send %s", i, m.MD5OfMessageAttributes, got)
		}
	}

	var asked map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if op := r.Header.Get("X-Amz-Target"); op != "AmazonSQS.ReceiveMessage" {
			http.Error(w, "unexpected "+op, http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &asked)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write(sample)
	}))
	defer srv.Close()
	api := sqs.New(sqs.Options{
		Region:       "ap-northeast-2",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	url := srv.URL + "/123456789012/tenger-dev-orders.fifo"
	ds, err := sqsq.New(api, url).Receive(context.Background(), 256, 30*time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The sample answers what the adapter asks for.
	names, _ := json.Marshal(asked["MessageSystemAttributeNames"])
	for attr := range rec.Messages[0].Attributes {
		if !strings.Contains(string(names), `"`+attr+`"`) {
			t.Errorf("sample attribute %s is not one the adapter asks for (%s)", attr, names)
		}
	}
	if len(ds) != len(want) {
		t.Fatalf("received %d deliveries, want %d", len(ds), len(want))
	}

	randomDedup := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for i, d := range ds {
		w := want[i]
		if d.ID != w.id || d.ReceiptHandle != w.receipt || d.Group != w.group || d.DedupID != w.dedupID ||
			d.ReceiveCount != w.receiveCount || !d.SentAt.Equal(time.UnixMilli(w.sentAt)) {
			t.Errorf("delivery %d: id %s group %s dedup %s receives %d sent %d (receipt %.12s...), want %s %s %s %d %d (%.12s...)",
				i, d.ID, d.Group, d.DedupID, d.ReceiveCount, d.SentAt.UnixMilli(), d.ReceiptHandle,
				w.id, w.group, w.dedupID, w.receiveCount, w.sentAt, w.receipt)
		}
		if len(d.Attributes) != 0 {
			t.Errorf("delivery %d: attributes %v reach the engine (the body-encoding marker must be stripped)", i, d.Attributes)
		}
		if len(d.Body) != matching.CommandSize {
			t.Fatalf("delivery %d: body of %d bytes, a command is %d", i, len(d.Body), matching.CommandSize)
		}
		var c matching.Command
		if err := matching.DecodeCommand(d.Body, &c); err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		if c != w.cmd {
			t.Errorf("delivery %d: command %+v, want %+v", i, c, w.cmd)
		}
		again := make([]byte, matching.CommandSize)
		matching.EncodeCommand(again, &c)
		if !bytes.Equal(again, d.Body) {
			t.Errorf("delivery %d: body is not the canonical encoding", i)
		}
		// The producers' conventions (internal/spot): group = the pair's
		// symbol, whose numeric id the command carries; a place command's
		// dedup id is "place:<order id>", other commands have none (the
		// adapter sends a random one).
		if c.Symbol != symbolNum(d.Group) || c.Seq != 0 {
			t.Errorf("delivery %d: symbol id %d (seq %d) in group %q", i, c.Symbol, c.Seq, d.Group)
		}
		if c.Kind == matching.CmdPlace {
			if d.DedupID != "place:"+strconv.FormatUint(c.OrderID, 10) {
				t.Errorf("delivery %d: place dedup id %q", i, d.DedupID)
			}
		} else if !randomDedup.MatchString(d.DedupID) {
			t.Errorf("delivery %d: %v dedup id %q is not the adapter's random one", i, c.Kind, d.DedupID)
		}
	}
}
