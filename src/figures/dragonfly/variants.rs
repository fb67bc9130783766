//! The dragonfly's topology variations (paper §3.2) measured next to their baseline
//! networks: group organisations, trunking and tapering (`df-groups`), and channel slicing
//! (`df-slices`). The paper gives no performance figure for any of them.

use super::{
    base_config, collect, csv, execute, job, label, latency_plot, sweeps, table, throughput_plot, ur_wc_plots,
};
use super::{Figure, FigureOptions, LOAD_AXIS, THROUGHPUT_AXIS};
use crate::config::{SlicePolicy, TopologyConfig};
use crate::rng::fault_stream;
use crate::topology::{DragonflyConfig, LinkClass, Topology};

/// One network of the `df-groups` preset: its name, group organisation (`intra` and its
/// trunking), number of groups and tapering.
struct Variant {
    name: String,
    intra: Option<Vec<u32>>,
    trunking: Option<Vec<u32>>,
    g: u32,
    taper: Vec<Vec<u32>>,
}

impl Variant {
    /// The variant's network with `a` routers per group (p = h = 2).
    fn topology(&self, a: u32) -> TopologyConfig {
        DragonflyConfig {
            intra: self.intra.clone(),
            intra_trunking: self.trunking.clone(),
            taper: self.taper.clone(),
            ..DragonflyConfig::new(2, a, 2, self.g)
        }
        .into()
    }
}

/// §3.2: the same dragonfly (p = h = 2, a = 8, g = 17: the routers of Fig. 6(b)) with fully
/// connected groups and with a 2-D and a 3-D flattened butterfly inside each group, the
/// 2-D one also with two channels between the routers of its first dimension (Fig. 6(a)); and
/// bandwidth tapering on g = 9 groups (two channels per group pair), where the first five
/// groups keep one channel to each other. Quick: a = 4 (g = 9 and, tapered, 5).
pub(super) fn groups(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let (a, g, g_taper) = if quick { (4, 9, 5) } else { (8, 17, 9) };
    let v = |name: &str, intra: Option<Vec<u32>>, g: u32, taper: Vec<Vec<u32>>| Variant {
        name: name.into(),
        intra,
        trunking: None,
        g,
        taper,
    };
    // Groups 0..5 keep one of their two channels to each other.
    let tapered: Vec<Vec<u32>> = (0..5u32).flat_map(|x| (x + 1..5).map(move |y| vec![x, y, 1])).collect();
    let mut variants = vec![v("fully connected", None, g, vec![])];
    if quick {
        variants.push(v("2-D FB 2×2", Some(vec![2, 2]), g, vec![]));
    } else {
        variants.push(v("2-D FB 2×4", Some(vec![2, 4]), g, vec![]));
        let trunked = v("2-D FB 2×4 trunked [2, 1]", Some(vec![2, 4]), g, vec![]);
        variants.push(Variant { trunking: Some(vec![2, 1]), ..trunked });
        variants.push(v("3-D FB 2×2×2", Some(vec![2, 2, 2]), g, vec![]));
    }
    variants.push(v(&format!("g = {g_taper}"), None, g_taper, vec![]));
    variants.push(v(&format!("g = {g_taper}, groups 0–4 tapered to 1 channel"), None, g_taper, tapered));
    let algorithms = ["min", "val", "ugal_l"];
    let names: Vec<String> =
        variants.iter().flat_map(|n| algorithms.iter().map(move |alg| format!("{}, {}", label(alg), n.name))).collect();
    let mut specs = Vec::new();
    for (panel, pattern) in [("UR", "uniform"), ("WC", "group_shift")] {
        for (i, _) in variants.iter().enumerate() {
            for (k, &alg) in algorithms.iter().enumerate() {
                specs.push((panel, names[i * algorithms.len() + k].as_str(), alg, pattern, 16));
            }
        }
    }
    // MIN on group shift: loads up to past its bound (1/16 or 2/16 here), not the 1K network's.
    let (min_wc, others): (Vec<_>, Vec<_>) = specs.iter().partition(|s| s.2 == "min" && s.3 == "group_shift");
    let mut jobs = sweeps(quick, &others.into_iter().copied().collect::<Vec<_>>());
    for &&(panel, series, algorithm, pattern, depth) in &min_wc {
        for load in [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.14, 0.16] {
            jobs.push(job(panel, series, quick, depth, algorithm, pattern, load));
        }
    }
    for j in &mut jobs {
        let n = variants.iter().rev().find(|n| j.series.ends_with(&n.name)).expect("a named variant");
        j.cfg.topology = n.topology(a);
    }
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let plots = ur_wc_plots(&series);
    let radix = |n: &Variant| Topology::build(&n.topology(a)).map(|t| t.network().radix(0)).map_err(|e| e.to_string());
    let radixes = variants.iter().map(radix).collect::<Result<Vec<_>, _>>()?;
    let markdown = format!(
        "Networks: {} (the router radix is p + local channels + h). The g = {g_taper} networks have two channels between every two groups; tapered, the ten pairs among groups 0–4 keep one (`topology.taper`).{}\n\n{}\nPaper (§3.2): a higher-dimensional intra-group network raises the group's effective radix (Fig. 6(b): a 3-D flattened butterfly lets k = 7 routers form groups of 8) and may exploit packaging locality by providing more bandwidth to neighbouring routers (Fig. 6(a); here `topology.intra_trunking = [2, 1]`: two channels between the two routers of the first dimension); where uniform bandwidth is not needed, tapering removes inter-group channels among some groups. The paper gives no performance figure for any of them. With the same p and h, fewer local channels per router carry the same local traffic, so local channels, not global ones, can limit throughput.\n",
        variants
            .iter()
            .zip(&radixes)
            .map(|(n, radix)| format!("{} (N = {}, radix {radix})", n.name, 2 * a * n.g))
            .collect::<Vec<_>>()
            .join("; "),
        " On group shift MIN is bound by the channels from a group to the next: 1/(ah) with one channel per pair, 2/(ah) with two.",
        table(&series, &[0.1, 0.3], false)
    );
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}

/// A third of a dragonfly's global channels (each once, from its lower router), drawn
/// from the seed's fault stream as `faults.random_fraction` draws links: the failures of a
/// degraded network or slice.
fn a_third_of_the_global_channels(topology: &TopologyConfig, seed: u64) -> Result<Vec<(u32, u32)>, String> {
    let topo = Topology::build(topology).map_err(|e| e.to_string())?;
    let net = topo.network();
    let globals = net.channels().filter(|&(r, p, q, _)| r < q && net.port(r, p).class == LinkClass::Global);
    let mut links: Vec<(u32, u32)> = globals.map(|(r, _, q, _)| (r, q)).collect();
    let mut rng = fault_stream(seed);
    let count = links.len() / 3;
    for i in 0..count {
        let j = i + rng.below((links.len() - i) as u32) as usize;
        links.swap(i, j);
    }
    links.truncate(count);
    Ok(links)
}

/// §3.2, channel slicing ("multiple network can be connected in parallel to add
/// capacity"): two copies of the 1K network (quick: of the 72-node one) side by side, every
/// node attached to both, UGAL-L on UR; healthy, and with a third of slice 1's global
/// channels failed under each slice policy; next to one network, healthy and with the same
/// channels failed.
pub(super) fn slices(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let sliced = |n: u32, policy: SlicePolicy| base_config(quick, 16).topology.sliced(n, policy);
    let one = sliced(1, SlicePolicy::ShortestQueue);
    // The same channels fail in the single network and in slice 1 (its routers numbered on
    // from the first slice's).
    let failed = a_third_of_the_global_channels(&one, base_config(quick, 16).seed)?;
    let routers = Topology::build(&one).map_err(|e| e.to_string())?.network().routers() as u32;
    let failed_one: Vec<Vec<u32>> = failed.iter().map(|&(r, q)| vec![r, q]).collect();
    let failed_two: Vec<Vec<u32>> = failed.iter().map(|&(r, q)| vec![r + routers, q + routers]).collect();
    let degraded = "2 slices, slice 1 degraded";
    let cases: Vec<(String, TopologyConfig, &[Vec<u32>])> = vec![
        ("one network".into(), one.clone(), &[]),
        ("one network, degraded".into(), one, &failed_one),
        ("2 slices".into(), sliced(2, SlicePolicy::ShortestQueue), &[]),
        (format!("{degraded}, shortest queue"), sliced(2, SlicePolicy::ShortestQueue), &failed_two),
        (format!("{degraded}, round robin"), sliced(2, SlicePolicy::RoundRobin), &failed_two),
        (format!("{degraded}, random"), sliced(2, SlicePolicy::Random), &failed_two),
        (format!("{degraded}, shared queue"), sliced(2, SlicePolicy::SharedQueue), &failed_two),
    ];
    let names: Vec<String> = cases.iter().map(|c| format!("{}, {}", label("ugal_l"), c.0)).collect();
    let specs: Vec<_> = names.iter().map(|n| ("UR", n.as_str(), "ugal_l", "uniform", 16)).collect();
    let mut jobs = sweeps(quick, &specs);
    for j in &mut jobs {
        let (_, topology, failed) = &cases[names.iter().position(|n| *n == j.series).expect("a named case")];
        j.cfg.topology = topology.clone();
        j.cfg.faults.links = failed.to_vec();
    }
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let plots = vec![
        ("ur".to_string(), latency_plot("uniform random", LOAD_AXIS, &series, "UR", Some(100.0))),
        ("ur-throughput".to_string(), throughput_plot("uniform random: accepted", THROUGHPUT_AXIS, &series, "UR")),
    ];
    let markdown = format!(
        "Networks: one dragonfly, and two of them in parallel (`topology.slices = 2`), every node attached to both by a terminal channel of its own; load and accepted throughput are fractions of a node's channels together, so the same fraction is twice the flits per node on two slices. Degraded: a third of the global channels failed, drawn at random ({} of one network's, the same {} in slice 1; UGAL-L routes around them). Slice policy (`topology.slice_policy`): a node puts each packet, whole, on the slice where its source queue is shortest, on the slices in turn (round robin), on a random one, or keeps one queue whose head leaves on whichever slice can take it (shared queue).\n\n{}\nPaper (§3.2): \"multiple network can be connected in parallel to add capacity\" (channel slicing); it gives no figure. A fixed split (round robin, random) loads the degraded slice as much as the healthy one, so the pair saturates with it; choosing by the source queues shifts packets to the healthy slice.\n",
        failed_one.len(),
        failed_two.len(),
        table(&series, &[0.3, 0.5], false)
    );
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}
