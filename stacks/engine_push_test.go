package stacks

import (
	"strings"
	"testing"
)

// TestEnginePostsMarketChannels: the engine task publishes the market
// channels itself, so it knows the WebSocket API's management endpoint and
// its role may post to the live stage's connections, and only post (no
// DELETE or GET of connections, no other stage, no other API action).
func TestEnginePostsMarketChannels(t *testing.T) {
	found := false
	for _, r := range resources("engine", "AWS::ECS::TaskDefinition") {
		for _, c := range asList(props(r)["ContainerDefinitions"]) {
			for _, e := range asList(c.(obj)["Environment"]) {
				if e.(obj)["Name"] == "WS_ENDPOINT" {
					found = true
					if v := mustJSON(e.(obj)["Value"]); !strings.Contains(v, "LiveStage") && !strings.Contains(v, "WebSocketApi") {
						t.Errorf("engine WS_ENDPOINT = %s, want the realtime stack's stage", v)
					}
				}
			}
		}
	}
	if !found {
		t.Error("the engine task has no WS_ENDPOINT")
	}

	statements := 0
	for id, p := range resources("engine", "AWS::IAM::Policy") {
		for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			st := s.(obj)
			if !strings.Contains(mustJSON(st["Action"]), "execute-api:") {
				continue
			}
			statements++
			if !strings.Contains(id, "TaskRole") {
				t.Errorf("%s (not the task role) may use API Gateway: %s", id, mustJSON(st))
			}
			if got := mustJSON(st["Action"]); got != `"execute-api:ManageConnections"` {
				t.Errorf("engine API Gateway actions = %s", got)
			}
			res := mustJSON(st["Resource"])
			if !strings.Contains(res, "/live/POST/@connections/*") || strings.Contains(res, "DELETE") ||
				strings.Contains(res, "/GET/") || strings.Contains(res, `/*/*/@connections`) {
				t.Errorf("engine ManageConnections resource = %s, want POST on the live stage only", res)
			}
		}
	}
	if statements != 1 {
		t.Errorf("engine statements allowing API Gateway = %d, want 1", statements)
	}
}
