// Command k8s-validate reads Kubernetes manifests (the output of `helm template`) on standard input
// and decodes each one strictly into the Go type that the Kubernetes API server itself decodes it
// into (k8s.io/api; the Prometheus Operator's types for a PodMonitor): a field the type does not
// have, a field given twice or a value of the wrong type is refused, as `kubectl apply
// --validate=strict` would refuse it, without a cluster or a schema downloaded at run time.
// It prints {"checked": N, "errors": [...]} and exits 1 when any manifest is refused.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The kinds the chart renders, each with the type that holds it. A kind not listed is refused:
// a new kind in the chart needs its type here.
var kinds = map[string]func() any{
	"apps/v1/Deployment":                     func() any { return &appsv1.Deployment{} },
	"v1/Service":                             func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                      func() any { return &corev1.ServiceAccount{} },
	"v1/ConfigMap":                           func() any { return &corev1.ConfigMap{} },
	"batch/v1/Job":                           func() any { return &batchv1.Job{} },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"policy/v1/PodDisruptionBudget":          func() any { return &policyv1.PodDisruptionBudget{} },
	"networking.k8s.io/v1/NetworkPolicy":     func() any { return &networkingv1.NetworkPolicy{} },
	"networking.k8s.io/v1/Ingress":           func() any { return &networkingv1.Ingress{} },
	"monitoring.coreos.com/v1/PodMonitor":    func() any { return &monitoringv1.PodMonitor{} },
}

type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

type report struct {
	Checked int      `json:"checked"`
	Errors  []string `json:"errors"`
}

func main() {
	out := report{Errors: []string{}}
	reader := k8syaml.NewYAMLReader(bufio.NewReader(os.Stdin))
	for {
		document, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("reading the manifests: %v", err))
			break
		}
		if strings.TrimSpace(stripComments(string(document))) == "" {
			continue
		}
		var head header
		if err := yaml.Unmarshal(document, &head); err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("a document that is not YAML: %v", err))
			continue
		}
		name := fmt.Sprintf("%s %s", head.Kind, head.Metadata.Name)
		build, known := kinds[head.APIVersion+"/"+head.Kind]
		if !known {
			out.Errors = append(out.Errors, fmt.Sprintf("%s: %s/%s is not a kind this check knows", name, head.APIVersion, head.Kind))
			continue
		}
		out.Checked++
		if err := yaml.UnmarshalStrict(document, build()); err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("%s: %v", name, err))
		}
	}
	encoded, _ := json.Marshal(out)
	fmt.Println(string(encoded))
	if len(out.Errors) > 0 {
		os.Exit(1)
	}
}

// stripComments drops the comment lines of a document: helm leaves a document of comments alone
// where a template renders nothing.
func stripComments(document string) string {
	var kept []string
	for _, line := range strings.Split(document, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}
