// Package emf writes CloudWatch embedded metric format lines: a JSON log
// line that CloudWatch Logs turns into metrics as it ingests it, so a
// Lambda function or an ECS task (awslogs driver) publishes metrics without
// a PutMetricData call or its permission.
// https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
package emf

import (
	"encoding/json"
	"io"
	"sort"
	"sync"
	"time"
)

// Unit names a metric's unit as CloudWatch spells it.
type Unit string

// Units used here.
const (
	Count        Unit = "Count"
	Milliseconds Unit = "Milliseconds"
	None         Unit = "None"
)

// Metric is one value of a line.
type Metric struct {
	Name  string
	Unit  Unit
	Value float64
}

// Writer writes lines to w, one Write per line (so lines of concurrent
// writers sharing stdout do not interleave).
type Writer struct {
	mu        sync.Mutex
	w         io.Writer
	namespace string
	dims      map[string]string
}

// New returns a writer of metrics in namespace with the given dimensions
// (one dimension set holding them all).
func New(w io.Writer, namespace string, dims map[string]string) *Writer {
	return &Writer{w: w, namespace: namespace, dims: dims}
}

// Line is one EMF document.
func Line(namespace string, dims map[string]string, at time.Time, metrics ...Metric) []byte {
	names := make([]string, 0, len(dims))
	for k := range dims {
		names = append(names, k)
	}
	sort.Strings(names)
	type def struct {
		Name string `json:"Name"`
		Unit Unit   `json:"Unit"`
	}
	defs := make([]def, 0, len(metrics))
	doc := map[string]any{}
	for k, v := range dims {
		doc[k] = v
	}
	for _, m := range metrics {
		defs = append(defs, def{m.Name, m.Unit})
		doc[m.Name] = m.Value
	}
	doc["_aws"] = map[string]any{
		"Timestamp": at.UnixMilli(),
		"CloudWatchMetrics": []any{map[string]any{
			"Namespace": namespace, "Dimensions": [][]string{names}, "Metrics": defs,
		}},
	}
	b, _ := json.Marshal(doc) // strings, numbers and maps of them always marshal
	return append(b, '\n')
}

// Put writes one line of metrics at time at.
func (w *Writer) Put(at time.Time, metrics ...Metric) error {
	return w.PutWith(at, nil, metrics...)
}

// PutWith is Put with more dimensions for this line (added to the
// writer's, in the same dimension set).
func (w *Writer) PutWith(at time.Time, dims map[string]string, metrics ...Metric) error {
	all := w.dims
	if len(dims) > 0 {
		all = make(map[string]string, len(w.dims)+len(dims))
		for k, v := range w.dims {
			all[k] = v
		}
		for k, v := range dims {
			all[k] = v
		}
	}
	b := Line(w.namespace, all, at, metrics...)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.w.Write(b)
	return err
}
