import Tether

print("tether-demo")
