package main

import (
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// emitFlags are -emit and its settings.
type emitFlags struct {
	kind     *string
	replicas *int
	image    *string
	cpus     *int
	mem      *string
	name     *string
}

func addEmitFlags(fs *flag.FlagSet) emitFlags {
	return emitFlags{
		kind:     fs.String("emit", "", "print Kubernetes manifests that run this server as replicas and exit: k8s (a Deployment with a readiness probe on /health, and a Service); the other flags go into the container's command"),
		replicas: fs.Int("emit-replicas", 3, "with -emit k8s: replicas of the Deployment"),
		image:    fs.String("emit-image", "gemgo:latest", "with -emit k8s: the container image (gemgo's binaries on PATH)"),
		cpus:     fs.Int("emit-cpus", 2, "with -emit k8s: CPUs per replica"),
		mem:      fs.String("emit-mem", "2Gi", "with -emit k8s: memory per replica (Kubernetes' form: 2Gi, 512Mi)"),
		name:     fs.String("emit-name", "gemgo-envserver", "with -emit k8s: the name of the Deployment and the Service"),
	}
}

// manifests renders the Deployment and the Service of the server that fs
// (parsed) describes: the container runs envserver with the flags set on
// fs, -emit's aside, listening on every interface at -addr's port; the
// grace period covers -drain.
func (f emitFlags) manifests(fs *flag.FlagSet, drain time.Duration) (string, error) {
	if *f.kind != "k8s" {
		return "", fmt.Errorf("-emit %q: want k8s", *f.kind)
	}
	if *f.replicas < 1 || *f.cpus < 1 {
		return "", fmt.Errorf("-emit-replicas %d, -emit-cpus %d: want at least 1 each", *f.replicas, *f.cpus)
	}
	name := *f.name
	if errs := dnsLabel(name); errs != "" {
		return "", fmt.Errorf("-emit-name %q: %s", name, errs)
	}
	port := 8000
	if _, p, err := net.SplitHostPort(fs.Lookup("addr").Value.String()); err == nil {
		if n, err := strconv.Atoi(p); err == nil && n > 0 {
			port = n
		}
	}
	cmd := []string{"envserver", "-addr", fmt.Sprintf(":%d", port)}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "addr" && fl.Name != "emit" && !strings.HasPrefix(fl.Name, "emit-") {
			cmd = append(cmd, "-"+fl.Name+"="+fl.Value.String())
		}
	})
	labels := map[string]string{"app": name}
	res := map[string]string{"cpu": strconv.Itoa(*f.cpus), "memory": *f.mem}
	dep := deployment{APIVersion: "apps/v1", Kind: "Deployment", Metadata: meta{Name: name, Labels: labels}}
	dep.Spec.Replicas = *f.replicas
	dep.Spec.Selector.MatchLabels = labels
	dep.Spec.Template.Metadata.Labels = labels
	dep.Spec.Template.Spec.TerminationGracePeriodSeconds = int(drain.Seconds()) + 5
	dep.Spec.Template.Spec.Containers = []container{{
		Name: "envserver", Image: *f.image, Command: cmd,
		Env:   []envVar{{Name: "GOMAXPROCS", Value: strconv.Itoa(*f.cpus)}},
		Ports: []containerPort{{Name: "ws", ContainerPort: port}},
		ReadinessProbe: probe{HTTPGet: httpGet{Path: "/health", Port: "ws"},
			PeriodSeconds: 2, FailureThreshold: 1},
		Resources: resources{Requests: res, Limits: res},
	}}
	svc := service{APIVersion: "v1", Kind: "Service", Metadata: meta{Name: name, Labels: labels}}
	svc.Spec.Selector = labels
	svc.Spec.Ports = []servicePort{{Name: "ws", Port: port, TargetPort: "ws"}}
	var b strings.Builder
	fmt.Fprintf(&b, "# %d envserver replicas behind the Service %s: trainers set env.remote: ws://%s:%d.\n", *f.replicas, name, name, port)
	b.WriteString("# A replica joins when /health answers 200 and leaves when it drains (SIGTERM);\n")
	b.WriteString("# the client reconnects a broken session and replays its episode (docs/envserver.md).\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	for _, doc := range []any{dep, svc} {
		if err := enc.Encode(doc); err != nil {
			return "", err
		}
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// dnsLabel says what makes name no Kubernetes object name (RFC 1123
// label: at most 63 lower case letters, digits and '-', starting and
// ending with a letter or digit), or "".
func dnsLabel(name string) string {
	if name == "" || len(name) > 63 {
		return "want 1 to 63 characters"
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return "want lower case letters, digits and '-'"
		}
	}
	if name[0] == '-' || name[len(name)-1] == '-' {
		return "want a letter or digit first and last"
	}
	return ""
}

// The manifests' shape: the fields of apps/v1 Deployment and v1 Service
// that manifests sets, named as the Kubernetes API names them.
type (
	meta struct {
		Name   string            `yaml:"name,omitempty"`
		Labels map[string]string `yaml:"labels"`
	}
	deployment struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   meta   `yaml:"metadata"`
		Spec       struct {
			Replicas int `yaml:"replicas"`
			Selector struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"selector"`
			Template struct {
				Metadata meta `yaml:"metadata"`
				Spec     struct {
					TerminationGracePeriodSeconds int         `yaml:"terminationGracePeriodSeconds"`
					Containers                    []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	container struct {
		Name           string          `yaml:"name"`
		Image          string          `yaml:"image"`
		Command        []string        `yaml:"command"`
		Env            []envVar        `yaml:"env"`
		Ports          []containerPort `yaml:"ports"`
		ReadinessProbe probe           `yaml:"readinessProbe"`
		Resources      resources       `yaml:"resources"`
	}
	envVar struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	}
	containerPort struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	}
	probe struct {
		HTTPGet          httpGet `yaml:"httpGet"`
		PeriodSeconds    int     `yaml:"periodSeconds"`
		FailureThreshold int     `yaml:"failureThreshold"`
	}
	httpGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	}
	resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	}
	service struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   meta   `yaml:"metadata"`
		Spec       struct {
			Selector map[string]string `yaml:"selector"`
			Ports    []servicePort     `yaml:"ports"`
		} `yaml:"spec"`
	}
	servicePort struct {
		Name       string `yaml:"name"`
		Port       int    `yaml:"port"`
		TargetPort string `yaml:"targetPort"`
	}
)
