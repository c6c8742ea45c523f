package emf

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestLine: a line is one JSON object ending in a newline, with the
// dimensions and values at the top and their definitions under _aws, as
// the specification says.
func TestLine(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, "Tenger/Engine", map[string]string{"Stage": "prod"})
	at := time.UnixMilli(1_765_000_000_123)
	if err := w.Put(at, Metric{"ActiveEngine", Count, 1}, Metric{"ProjectionLagP99", Milliseconds, 12.5}); err != nil {
		t.Fatal(err)
	}
	line := buf.Bytes()
	if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("not one line: %q", line)
	}
	var doc struct {
		AWS struct {
			Timestamp         int64
			CloudWatchMetrics []struct {
				Namespace  string
				Dimensions [][]string
				Metrics    []struct{ Name, Unit string }
			}
		} `json:"_aws"`
		Stage        string
		ActiveEngine float64
		Lag          float64 `json:"ProjectionLagP99"`
	}
	if err := json.Unmarshal(line, &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.AWS.CloudWatchMetrics
	if doc.AWS.Timestamp != at.UnixMilli() || len(m) != 1 || m[0].Namespace != "Tenger/Engine" ||
		len(m[0].Dimensions) != 1 || len(m[0].Dimensions[0]) != 1 || m[0].Dimensions[0][0] != "Stage" ||
		len(m[0].Metrics) != 2 || m[0].Metrics[1].Name != "ProjectionLagP99" || m[0].Metrics[1].Unit != "Milliseconds" {
		t.Fatalf("document %+v", doc)
	}
	if doc.Stage != "prod" || doc.ActiveEngine != 1 || doc.Lag != 12.5 {
		t.Fatalf("values %+v", doc)
	}
}
