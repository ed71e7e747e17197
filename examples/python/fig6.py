# Fig. 6 of the conveyor paper, from Python: after `bash scripts/quickstart.sh`, python3 examples/python/fig6.py
import os, sys; sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../build/python"))  # an installed vibro first
import matplotlib; matplotlib.use("Agg")
import matplotlib.pyplot as plt
import vibro, vibro.plot
ds = vibro.sweep(example="conveyor_fig6")  # the sweep of `vibro run --example conveyor_fig6`, as a Dataset
vibro.plot.classes(ds, "a_hat", "mean_velocity")
os.makedirs("results", exist_ok=True)
plt.savefig("results/fig6_python.png", dpi=120)
print("wrote results/fig6_python.png")
